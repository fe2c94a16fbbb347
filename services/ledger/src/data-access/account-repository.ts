import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextKey, contextWhere } from '@finance/shared/db/context-scope';
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
  await em
    .getConnection()
    .execute(
      'select pg_advisory_xact_lock(hashtext(?))',
      [`${topic}:${contextKey(ctx)}`],
      'run',
      em.getTransactionContext(),
    );
}

/**
 * Current balances in one query for any number of accounts: imported accounts show the bank's figure;
 * manual ones add their paid, balance-counting live entries to the initial balance (PRODUCT.md §7).
 */
export async function balancesOf(em: EntityManager, accounts: Account[]): Promise<Map<string, number>> {
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
