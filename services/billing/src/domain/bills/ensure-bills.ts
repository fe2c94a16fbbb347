import { addMonthsClamped, type CalendarDate } from '@finance/shared/calendar';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsInMonths, byMonth, insertMissingBills, type StoredBill } from '../../data-access/bill-repository.ts';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';
import { datesOfMonth } from './bill-calendar.ts';

/**
 * Returns the card's bills of the given months, creating the missing ones with the dates the card's days
 * give them; also loads the neighbours so open dates can be read. Two or three statements in all.
 */
export async function ensureBills(em: EntityManager, card: CreditCard, months: CalendarDate[]) {
  const sorted = [...new Set(months)].sort();
  const from = addMonthsClamped(sorted[0], -1);
  const to = sorted[sorted.length - 1];
  let rows = await billsInMonths(em, card.id, from, to);
  const stored = byMonth(rows);
  const missing = sorted.filter((month) => !stored.has(month));
  if (missing.length) {
    await insertMissingBills(
      em,
      { userId: card.userId, profileId: card.profileId ?? null, cardId: card.id },
      missing.map((month) => datesOfMonth(card, stored, month)),
    );
    rows = await billsInMonths(em, card.id, from, to);
  }
  return { rows: new Map(rows.map((row) => [row.referenceMonth, row])), stored: byMonth(rows) } as {
    rows: Map<string, StoredBill>;
    stored: ReturnType<typeof byMonth>;
  };
}
