import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Moves the live cards of one account to another in one statement (account deletion, PRODUCT.md §7). */
export async function moveCards(
  em: EntityManager,
  ctx: CallerContext,
  input: { from_account_id: string; to_account_id: string },
) {
  const scope = contextSql(ctx);
  const moved: Array<{ id: string; account_id: string }> = await em.getConnection().execute(
    `update credit_cards set account_id = ?, updated_at = now()
       where account_id = ? and deleted_at is null and ${scope.sql} returning id, account_id`,
    [input.to_account_id, input.from_account_id, ...scope.params],
    'all',
  );
  return { moved: moved.map((row) => ({ id: row.id, account_id: row.account_id })) };
}

/** Whether any live card of the context is linked to the account (deleting the last account is then 409). */
export async function cardsLinked(em: EntityManager, ctx: CallerContext, accountId: string) {
  const scope = contextSql(ctx);
  const rows: Array<{ id: string; account_id: string }> = await em
    .getConnection()
    .execute(
      `select id, account_id from credit_cards where account_id = ? and deleted_at is null and ${scope.sql} order by id`,
      [accountId, ...scope.params],
      'all',
    );
  return { credit_cards: rows };
}
