import type { CallerContext } from '@finance/shared/context/signed-context';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { liveCardsOfAccount, moveLiveCards } from '../../data-access/card-repository.ts';

/** Moves the live cards of one account to another in one statement (account deletion, docs/decisions.md §7). */
export async function moveCards(
  em: EntityManager,
  ctx: CallerContext,
  input: { from_account_id: string; to_account_id: string },
) {
  return em.transactional(async (tx) => {
    const moved = await moveLiveCards(tx, ctx, input.from_account_id, input.to_account_id);
    return keepAnswer({ moved: moved.map((row) => ({ id: row.id, account_id: row.account_id })) });
  });
}

/** Whether any live card of the context is linked to the account (deleting the last account is then 409). */
export async function cardsLinked(em: EntityManager, ctx: CallerContext, accountId: string) {
  return { credit_cards: await liveCardsOfAccount(em, ctx, accountId) };
}
