import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportedAccount } from '@finance/shared/contracts/ledger/open-banking';
import { newId } from '@finance/shared/db/base-entity';
import { contextRef } from '@finance/shared/db/context-scope';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockContext } from '../../data-access/account-repository.ts';
import type { ConnectionAccount } from '../../data-access/open-banking-imports.ts';
import {
  makeFirstConnectionAccountDefault,
  selectAccountsOfConnection,
  upsertImportedAccounts,
} from '../../data-access/open-banking-imports.ts';
import { resolveLogo } from '../accounts/banks.ts';

export type { ConnectionAccount };

/** Every account of the connection with its bank id (deleted ones included, so their rows can be skipped). */
export async function accountsOfConnection(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
): Promise<ConnectionAccount[]> {
  return selectAccountsOfConnection(em, ctx, connectionId);
}

/**
 * Accounts by (context, connection, external id) in one statement: balance, type and subtype follow the
 * bank; name and logo are set once (the user may edit them); unchanged and deleted rows are not touched.
 * The first account of a context becomes its default, as with manual accounts.
 */
export async function upsertAccounts(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  accounts: ImportedAccount[],
  logoBase: string,
): Promise<{ created: number; updated: number }> {
  if (accounts.length === 0) return { created: 0, updated: 0 };
  await lockContext(em, ctx, 'accounts');
  const rows = accounts.map((account) => ({
    id: newId(),
    external_id: account.external_id,
    name: account.name,
    logo: (account.logo && resolveLogo(logoBase, account.logo)) || `${logoBase.replace(/\/$/, '')}/default.png`,
    balance: account.balance ?? null,
    type: account.type,
    subtype: account.subtype || null,
  }));
  const changed = await upsertImportedAccounts(em, ctx, connectionId, rows);
  await makeFirstConnectionAccountDefault(em, ctx, connectionId);
  const created = changed.filter((row) => row.created);
  for (const account of created) {
    recordEvent(em, 'account.created', contextRef(ctx), {
      account_id: account.id,
      name: account.name,
      type: account.type,
    });
  }
  return { created: created.length, updated: changed.length - created.length };
}
