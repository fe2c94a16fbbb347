import { compare } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAhead, BillsAheadInput } from '@finance/shared/contracts/internal/billing-for-insights';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cardsWithUnrolledBills } from '../../data-access/card-repository.ts';
import { billFigures } from './bill-balance.ts';
import { type BillDates, type CardDays, datesOfMonth, monthForDate } from './bill-calendar.ts';

/**
 * The bills of the context's live cards the rollover has not carried yet, due by `until` (an overdue one too), each
 * with its balance (`billFigures`) and its card's paying account; `purchases` (a forecast's occurrences not written
 * yet) join the bill their date falls in by the card's calendar, a stored one or one no purchase made yet. Reads
 * only: no bill is created. One statement for the cards and their bills, one totals call.
 */
export async function billsAhead(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  input: BillsAheadInput,
): Promise<{ bills: BillAhead[] }> {
  const rows = await cardsWithUnrolledBills(em, ctx);
  const totals = new Map(
    (
      await ledger.totals(
        ctx,
        rows.flatMap((row) => (row.bill_id ? [row.bill_id] : [])),
      )
    ).map((t) => [t.bill_id, t]),
  );
  const cards = new Map<
    string,
    { name: string; accountId: string; days: CardDays; months: Map<string, BillDates & { id: string }> }
  >();
  for (const row of rows) {
    const card = cards.get(row.card_id) ?? {
      name: row.name,
      accountId: row.account_id,
      days: { closingDay: row.closing_day, dueDay: row.due_day, calendar: row.calendar },
      months: new Map(),
    };
    cards.set(row.card_id, card);
    if (row.bill_id && row.reference_month && row.closing_date && row.due_date) {
      card.months.set(row.reference_month, {
        id: row.bill_id,
        referenceMonth: row.reference_month,
        closingDate: row.closing_date,
        dueDate: row.due_date,
      });
    }
  }
  const ahead = new Map<string, BillAhead>();
  const billOf = (cardId: string, dueDate: string, billId: string | null): BillAhead => {
    const card = cards.get(cardId)!;
    return {
      bill_id: billId,
      credit_card_id: cardId,
      card_name: card.name,
      account_id: card.accountId,
      due_date: dueDate,
      balance: 0,
    };
  };
  for (const [cardId, card] of cards) {
    for (const bill of card.months.values()) {
      if (compare(bill.dueDate, input.until) > 0) continue;
      const entry = billOf(cardId, bill.dueDate, bill.id);
      entry.balance = billFigures(totals.get(bill.id)).balance;
      ahead.set(`${cardId}:${bill.referenceMonth}`, entry);
    }
  }
  for (const purchase of input.purchases) {
    const card = cards.get(purchase.credit_card_id);
    if (!card) continue;
    const month = monthForDate(card.days, card.months, purchase.date);
    const dates = datesOfMonth(card.days, card.months, month);
    if (compare(dates.dueDate, input.until) > 0) continue;
    const key = `${purchase.credit_card_id}:${month}`;
    const bill = ahead.get(key) ?? billOf(purchase.credit_card_id, dates.dueDate, card.months.get(month)?.id ?? null);
    bill.balance += purchase.amount;
    ahead.set(key, bill);
  }
  const bills = [...ahead.values()].sort(
    (a, b) => a.credit_card_id.localeCompare(b.credit_card_id) || compare(a.due_date, b.due_date),
  );
  return { bills };
}
