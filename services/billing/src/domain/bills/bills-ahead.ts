import { compare } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAhead, BillsAheadInput } from '@finance/shared/contracts/internal/billing-for-insights';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsOfCards, byMonth } from '../../data-access/bill-repository.ts';
import { liveCardsOf } from '../../data-access/card-repository.ts';
import { billFigures } from './bill-balance.ts';
import { datesOfMonth, monthForDate } from './bill-calendar.ts';

/**
 * The bills of the context's live cards the rollover has not carried yet, due by `until` (an overdue one too), each
 * with its balance (`billFigures`) and its card's paying account; `purchases` (a forecast's occurrences not written
 * yet) join the bill their date falls in by the card's calendar, a stored one or one no purchase made yet. Reads
 * only: no bill is created. One bills query and one totals call.
 */
export async function billsAhead(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  input: BillsAheadInput,
): Promise<{ bills: BillAhead[] }> {
  const cards = await liveCardsOf(em, ctx);
  const stored = (
    await billsOfCards(
      em,
      cards.map((card) => card.id),
    )
  ).filter((bill) => !bill.rolledOverAt);
  const totals = new Map(
    (
      await ledger.totals(
        ctx,
        stored.map((bill) => bill.id),
      )
    ).map((t) => [t.bill_id, t]),
  );
  const ahead = new Map<string, BillAhead>();
  for (const card of cards) {
    const own = stored.filter((bill) => bill.creditCardId === card.id);
    const months = byMonth(own);
    for (const bill of own) {
      if (compare(bill.dueDate, input.until) > 0) continue;
      ahead.set(`${card.id}:${bill.referenceMonth}`, {
        bill_id: bill.id,
        credit_card_id: card.id,
        card_name: card.name,
        account_id: card.accountId,
        due_date: bill.dueDate,
        balance: billFigures(totals.get(bill.id)).balance,
      });
    }
    const days = { closingDay: card.closingDay, dueDay: card.dueDay, calendar: card.calendar };
    for (const purchase of input.purchases.filter((p) => p.credit_card_id === card.id)) {
      const month = monthForDate(days, months, purchase.date);
      const dates = datesOfMonth(days, months, month);
      if (compare(dates.dueDate, input.until) > 0) continue;
      const key = `${card.id}:${month}`;
      const bill = ahead.get(key) ?? {
        bill_id: null,
        credit_card_id: card.id,
        card_name: card.name,
        account_id: card.accountId,
        due_date: dates.dueDate,
        balance: 0,
      };
      bill.balance += purchase.amount;
      ahead.set(key, bill);
    }
  }
  const bills = [...ahead.values()].sort(
    (a, b) => a.credit_card_id.localeCompare(b.credit_card_id) || compare(a.due_date, b.due_date),
  );
  return { bills };
}
