import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextKey, contextRef, contextSql } from '@finance/shared/db/context-scope';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockContext } from '../../data-access/account-repository.ts';
import { execute } from '../../data-access/transaction-repository.ts';
import { resolveLogo } from '../accounts/banks.ts';
import type { ImportedAccountInput } from './import-payload.ts';

export interface ConnectionAccount {
  id: string;
  external_id: string;
  deleted: boolean;
}

/** Every account of the connection with its bank id (deleted ones included, so their rows can be skipped). */
export async function accountsOfConnection(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
): Promise<ConnectionAccount[]> {
  const scope = contextSql(ctx);
  return execute<ConnectionAccount>(
    em,
    `select id, external_id, deleted_at is not null as deleted from accounts
     where connection_id = ? and external_id is not null and ${scope.sql}`,
    [connectionId, ...scope.params],
  );
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
  accounts: ImportedAccountInput[],
  logoBase: string,
): Promise<{ created: number; updated: number }> {
  if (accounts.length === 0) return { created: 0, updated: 0 };
  await lockContext(em, ctx, 'accounts');
  const rows = accounts.map((account) => ({
    id: newId(),
    external_id: account.external_id,
    name: account.name,
    logo: (account.logo && resolveLogo(logoBase, account.logo)) || `${logoBase.replace(/\/$/, '')}/default.png`,
    balance: account.balance,
    type: account.type,
    subtype: account.subtype || null,
  }));
  const changed = await execute<{ id: string; name: string; type: string | null; created: boolean }>(
    em,
    `insert into accounts as a (id, user_id, profile_id, name, logo, initial_balance, bank_balance, include_total_balance,
       is_default, type, subtype, connection_id, external_id, created_at, updated_at)
     select r.id, ?, ?, r.name, r.logo, 0, r.balance, true, false, r.type, r.subtype, ?, r.external_id, now(), now()
     from jsonb_to_recordset(?::jsonb) as r(id uuid, external_id text, name text, logo text, balance bigint, type text, subtype text)
     on conflict (coalesce(profile_id, user_id), connection_id, external_id) where external_id is not null do update set
       bank_balance = excluded.bank_balance, type = excluded.type, subtype = excluded.subtype, updated_at = now()
     where a.deleted_at is null
       and (a.bank_balance, a.type, a.subtype) is distinct from (excluded.bank_balance, excluded.type, excluded.subtype)
     returning a.id, a.name, a.type, (xmax = 0) as created`,
    [ctx.userId, ctx.profileId, connectionId, JSON.stringify(rows)],
  );
  const scope = contextSql(ctx);
  await execute(
    em,
    `update accounts set is_default = true, updated_at = now() where id = (
       select id from accounts where connection_id = ? and deleted_at is null and ${scope.sql} order by created_at, id limit 1)
     and not exists (
       select 1 from accounts where coalesce(profile_id, user_id) = ? and is_default and deleted_at is null and ${scope.sql})`,
    [connectionId, ...scope.params, contextKey(ctx), ...scope.params],
  );
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
