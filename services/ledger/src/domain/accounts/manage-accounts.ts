import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { AccountFields } from '@finance/shared/contracts/ledger/accounts';
import { contextRef, ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  balancesOf,
  findAccount,
  hasLiveAccount,
  listAccountsPage,
  lockContext,
} from '../../data-access/account-repository.ts';
import { type Account, AccountSchema } from '../../data-access/entities/account.ts';
import { accountView } from './account-view.ts';
import { resolveLogo } from './banks.ts';

const NOT_FOUND = 'Conta não encontrada';

function logoUrl(logoBase: string, logo: string): string {
  const url = resolveLogo(logoBase, logo);
  if (!url) throw invalidField('logo', 'código de banco desconhecido; veja GET /v1/banks');
  return url;
}

async function viewOf(em: EntityManager, account: Account) {
  const balances = await balancesOf(em, [account]);
  return accountView(account, balances.get(account.id) ?? 0);
}

/** The first account of a context becomes its default; `account.created` leaves with the same commit. */
export async function createAccount(em: EntityManager, ctx: CallerContext, input: AccountFields, logoBase: string) {
  const logo = logoUrl(logoBase, input.logo);
  return em.transactional(async (tx) => {
    await lockContext(tx, ctx, 'accounts');
    const isDefault = !(await hasLiveAccount(tx, ctx));
    const created = tx.create(AccountSchema, {
      ...ownerOf(ctx),
      name: input.name,
      logo,
      initialBalance: input.balance ?? 0,
      bankBalance: null,
      includeTotalBalance: input.include_total_balance ?? true,
      isDefault,
      type: input.type ?? 'PERSONAL_BANK',
      subtype: null,
      connectionId: null,
      externalId: null,
      deletedAt: null,
    });
    recordEvent(tx, 'account.created', contextRef(ctx), {
      account_id: created.id,
      name: created.name,
      type: created.type ?? null,
    });
    await tx.flush();
    return keepAnswer(await viewOf(tx, created));
  });
}

export async function updateAccount(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  input: AccountFields,
  logoBase: string,
) {
  const logo = logoUrl(logoBase, input.logo);
  const account = await findAccount(em, ctx, id);
  if (!account) throw notFound(NOT_FOUND);
  account.name = input.name;
  account.logo = logo;
  if (input.balance !== undefined) account.initialBalance = input.balance;
  if (input.include_total_balance !== undefined) account.includeTotalBalance = input.include_total_balance;
  if (input.type !== undefined) account.type = input.type;
  return em.transactional(async (tx) => {
    await tx.flush();
    return keepAnswer(await viewOf(tx, account));
  });
}

export async function getAccount(em: EntityManager, ctx: CallerContext, id: string) {
  const account = await findAccount(em, ctx, id);
  if (!account) throw notFound(NOT_FOUND);
  return viewOf(em, account);
}

export async function listAccounts(em: EntityManager, ctx: CallerContext, page: PageQuery) {
  const rows = await listAccountsPage(em, ctx, page.limit, afterIdOf(page.cursor));
  const balances = await balancesOf(em, rows.slice(0, page.limit));
  return toPage(rows, page.limit, (account) => accountView(account, balances.get(account.id) ?? 0));
}
