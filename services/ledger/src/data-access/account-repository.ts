import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextKey, contextSql, contextWhere } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { type Account, AccountSchema } from './entities/account.ts';
import { paidNetByAccount } from './transaction-repository.ts';

/** `forDeletion` locks the row FOR UPDATE: writers holding it (FOR KEY SHARE) finish first, later ones see it deleted. */
export async function findAccount(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  forDeletion = false,
): Promise<Account | null> {
  return em.findOne(
    AccountSchema,
    { id, deletedAt: null, ...contextWhere(ctx) },
    forDeletion ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
}

export async function listAccountsPage(em: EntityManager, ctx: CallerContext, limit: number, afterId: string | null) {
  return em.find(
    AccountSchema,
    { deletedAt: null, ...contextWhere(ctx), ...(afterId ? { id: { $gt: afterId } } : {}) },
    { orderBy: { id: 'asc' }, limit: limit + 1 },
  );
}

export async function hasLiveAccount(em: EntityManager, ctx: CallerContext): Promise<boolean> {
  return (await em.count(AccountSchema, { deletedAt: null, ...contextWhere(ctx) })) > 0;
}

/** Serializes writers of one context (first-account default, deletions) inside the current transaction. */
export async function lockContext(em: EntityManager, ctx: CallerContext, topic: string): Promise<void> {
  await runSql(em, 'select pg_advisory_xact_lock(hashtext(?))', [`${topic}:${contextKey(ctx)}`]);
}

/**
 * Current balances in one query for any number of accounts: imported accounts show the bank's figure;
 * manual ones add their paid, balance-counting live entries to the initial balance (docs/decisions.md §7).
 */
export async function balancesOf(
  em: EntityManager,
  accounts: Array<Pick<Account, 'id' | 'bankBalance' | 'initialBalance'>>,
): Promise<Map<string, number>> {
  const manual = accounts.filter((account) => account.bankBalance === null || account.bankBalance === undefined);
  const nets = await paidNetByAccount(
    em,
    manual.map((account) => account.id),
  );
  return new Map(
    accounts.map((account) => [
      account.id,
      account.bankBalance ?? account.initialBalance + (nets.get(account.id) ?? 0),
    ]),
  );
}

/**
 * The live transactions an account deletion touches: the account's own, and the other leg of each of its
 * transfers (`own` false: it stays, in the surviving account, as a plain entry). Its own entries through the
 * account's index, each transfer's other leg through the series index: what the account holds, whatever the table
 * holds (joined on `id or connected_transaction_id`, PostgreSQL scanned every live row once per entry).
 */
export async function liveTransactionsOfAccount(em: EntityManager, ctx: CallerContext, accountId: string) {
  const own = contextSql(ctx, 't');
  const other = contextSql(ctx, 'm');
  return runSql<{ id: string; own: boolean }>(
    em,
    `select t.id, true as own from transactions t where t.account_id = ? and t.deleted_at is null and ${own.sql}
     union
     select m.id, false from transactions t
       join transactions m on m.connected_transaction_id = t.connected_transaction_id and m.deleted_at is null
         and m.account_id is distinct from t.account_id and ${other.sql}
     where t.account_id = ? and t.type = 'TRANSFER' and t.connected_transaction_id is not null
       and t.deleted_at is null and ${own.sql}`,
    [accountId, ...own.params, ...other.params, accountId, ...own.params],
  );
}

/** The oldest live account of the context becomes its default (after the default one was deleted). */
export async function makeOldestAccountDefault(em: EntityManager, ctx: CallerContext): Promise<void> {
  const scope = contextSql(ctx);
  await runSql(
    em,
    `update accounts set is_default = true, updated_at = now() where id = (
       select id from accounts where deleted_at is null and ${scope.sql} order by created_at, id limit 1)`,
    scope.params,
  );
}

/** The account that takes a deleted account's cards: the context's default, else its oldest live account. */
export async function successorAccount(em: EntityManager, ctx: CallerContext): Promise<{ id: string } | undefined> {
  const scope = contextSql(ctx);
  const [successor] = await runSql<{ id: string }>(
    em,
    `select id from accounts where deleted_at is null and ${scope.sql} order by is_default desc, created_at, id limit 1`,
    scope.params,
  );
  return successor;
}
