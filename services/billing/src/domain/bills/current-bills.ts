import { addMonthsClamped, type CalendarDate, startOfMonth } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CurrentBill } from '@finance/shared/contracts/internal/billing-for-insights';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cardsWithBillsBetween } from '../../data-access/card-repository.ts';
import { type BillDates, type CardDays, monthForDate } from './bill-calendar.ts';

/**
 * The stored bill of each live card of the context whose period holds `today` (the context's day, which
 * insights sends; its OPEN bill by dates;
 * whether a fully paid one is PAID is the ledger's to say, it holds the totals). One query: the cards
 * with their bills a few months around today, resolved with the same calendar as every bill read.
 */
export async function currentBills(
  em: EntityManager,
  ctx: CallerContext,
  today: CalendarDate,
): Promise<{ bills: CurrentBill[] }> {
  const month = startOfMonth(today);
  const rows = await cardsWithBillsBetween(em, ctx, addMonthsClamped(month, -3), addMonthsClamped(month, 3));
  const cards = new Map<string, { days: CardDays; stored: Map<string, BillDates> }>();
  const ids = new Map<string, string>();
  for (const row of rows) {
    const card = cards.get(row.card_id) ?? {
      // the card's dated days: a month before a change keeps the days it had
      days: { closingDay: row.closing_day, dueDay: row.due_day, calendar: row.calendar },
      stored: new Map<string, BillDates>(),
    };
    cards.set(row.card_id, card);
    if (row.bill_id && row.reference_month && row.closing_date && row.due_date) {
      card.stored.set(row.reference_month, {
        referenceMonth: row.reference_month,
        closingDate: row.closing_date,
        dueDate: row.due_date,
      });
      ids.set(`${row.card_id}:${row.reference_month}`, row.bill_id);
    }
  }
  const bills: CurrentBill[] = [];
  for (const [cardId, card] of cards) {
    const current = monthForDate(card.days, card.stored, today);
    const id = ids.get(`${cardId}:${current}`);
    const dates = card.stored.get(current);
    if (id && dates) bills.push({ id, credit_card_id: cardId, closing_date: dates.closingDate });
  }
  return { bills };
}
