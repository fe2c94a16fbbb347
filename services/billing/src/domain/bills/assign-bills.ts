import { type CalendarDate, parseCalendarDate } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { isBillable, NOT_BILLABLE } from '@finance/shared/contracts/billing/bills';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsInMonths, byMonth, reopenForRollover } from '../../data-access/bill-repository.ts';
import { findCardShared } from '../../data-access/card-repository.ts';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';
import { monthDueOn, monthForDate, monthWindow } from './bill-calendar.ts';
import { ensureBills } from './ensure-bills.ts';

const cardSummary = (card: CreditCard) => ({
  id: card.id,
  account_id: card.accountId,
  name: card.name,
  // the ledger re-checks it before writing (docs/architecture.md rule 9)
  calendar_version: card.calendarVersion,
});

export const CARD_NOT_FOUND = 'Cartão de crédito não encontrado';

/**
 * The bill of each purchase date (created as needed) for the ledger: `billed_at` is the bill's closing date.
 * Set-based: a fixed number of statements for any number of dates.
 */
export async function assignBills(
  em: EntityManager,
  ctx: CallerContext,
  input: { credit_card_id: string; dates: string[]; due_dates?: string[] },
) {
  const billable = (field: string) => (date: string, index: number) => {
    const parsed = parseCalendarDate(date);
    if (!parsed) throw invalidField(`${field}.${index}`, 'data inválida');
    // named `date`: the ledger passes this 400 on for the transaction's own field
    if (!isBillable(parsed)) throw invalidField('date', `data de cartão ${NOT_BILLABLE}`);
    return parsed;
  };
  const dates = input.dates.map(billable('dates'));
  const dueDates = (input.due_dates ?? []).map(billable('due_dates'));
  return em.transactional(async (tx) => {
    const card = await findCardShared(tx, ctx, input.credit_card_id);
    if (!card) throw notFound(CARD_NOT_FOUND);
    if (dates.length === 0 && dueDates.length === 0) {
      return keepAnswer({ card: cardSummary(card), assignments: [], due_assignments: [] });
    }
    const window = monthWindow([...dates, ...dueDates]);
    const stored = byMonth(await billsInMonths(tx, card.id, window.from, window.to));
    const months = dates.map((date) => monthForDate(card, stored, date));
    const dueMonths = dueDates.map((date) => monthDueOn(stored, date));
    const { rows } = await ensureBills(tx, card, [...months, ...dueMonths]);
    await reopenForRollover(tx, [...new Set([...months, ...dueMonths].map((month) => rows.get(month)!.id))]);
    const assigned = (list: CalendarDate[], monthsOf: CalendarDate[]) =>
      list.map((date, index) => {
        const bill = rows.get(monthsOf[index])!;
        return { date, bill_id: bill.id, billed_at: bill.closingDate };
      });
    return keepAnswer({
      card: cardSummary(card),
      assignments: assigned(dates, months),
      due_assignments: assigned(dueDates, dueMonths),
    });
  });
}
