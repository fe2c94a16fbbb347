import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportCardsResult, ImportedCardInput } from '@finance/shared/contracts/internal/billing-for-ledger';
import { newId } from '@finance/shared/db/base-entity';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cardsOfConnection, upsertImportedCards } from '../../data-access/card-repository.ts';

/** Without a closing day from the bank, a provisional one 7 days before the due day (to be reviewed). */
export const provisionalClosingDay = (dueDay: number): number => ((dueDay - 8 + 31) % 31) + 1;

/**
 * Open-banking cards by (context, connection, external id) in one statement: due day, limit and name follow
 * the bank; a known closing day is set and clears the review flag; an unknown one keeps what the card has.
 * Rows that did not change are not touched; deleted cards stay deleted.
 */
export async function importCards(
  em: EntityManager,
  ctx: CallerContext,
  input: { connection_id: string; cards: ImportedCardInput[] },
): Promise<ImportCardsResult> {
  return em.transactional(async (tx) => {
    const rows = input.cards.map((card) => ({
      ...card,
      id: newId(),
      closing: card.closing_day ?? provisionalClosingDay(card.due_day),
      review: card.closing_day === null,
    }));
    const changed = rows.length ? await upsertImportedCards(tx, ctx, input.connection_id, rows) : [];
    const cards = await cardsOfConnection(tx, ctx, input.connection_id);
    const created = changed.filter((row) => row.created).length;
    return keepAnswer({ created, updated: changed.length - created, cards });
  });
}
