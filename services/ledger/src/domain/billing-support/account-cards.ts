import type { BillingClient } from '@finance/shared/clients/billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { conflict } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';

/**
 * Cards of a deleted account move to the context's default account, else the oldest remaining one
 * (PRODUCT.md §7); with no account left, linked cards make the deletion 409. Call inside the deletion's
 * transaction, after the account is gone and the default has passed on.
 */
export async function moveCardsOfDeletedAccount(
  billing: BillingClient,
  em: EntityManager,
  ctx: CallerContext,
  accountId: string,
): Promise<Array<{ id: string; account_id: string }>> {
  const scope = contextSql(ctx);
  const [successor] = await execute<{ id: string }>(
    em,
    `select id from accounts where deleted_at is null and ${scope.sql} order by is_default desc, created_at, id limit 1`,
    scope.params,
  );
  if (successor) return billing.moveCards(ctx, accountId, successor.id);
  const linked = await billing.linkedCards(ctx, accountId);
  if (linked.length) throw conflict('Não é possível excluir a última conta: há cartões de crédito vinculados a ela');
  return [];
}
