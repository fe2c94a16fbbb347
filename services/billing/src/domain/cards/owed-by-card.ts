import { type CalendarDate, compare } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillTotals } from '@finance/shared/contracts/internal/ledger-for-billing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsOfCards, byMonth, type StoredBill } from '../../data-access/bill-repository.ts';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';
import { openDateOf } from '../bills/bill-calendar.ts';
import { heldBy } from '../bills/rollover-rules.ts';
import { contextToday } from '../context-today.ts';

/**
 * What one card holds of its limit, from its stored bills and their totals: the remainder of every bill the
 * rollover has not handled yet (an overpaid bill's credit counts back), future installments included, but
 * recurrence occurrences only in bills already open (today on or after their open date).
 */
export function heldByCard(card: CreditCard, bills: StoredBill[], totals: BillTotals[], today: CalendarDate): number {
  const stored = byMonth(bills);
  const live = new Map(bills.filter((bill) => !bill.rolledOverAt).map((bill) => [bill.id, bill]));
  let held = 0;
  for (const total of totals) {
    const bill = live.get(total.bill_id);
    if (!bill) continue;
    held += heldBy(total, compare(today, openDateOf(card, stored, bill.referenceMonth)) >= 0);
  }
  return held;
}

/** `heldByCard` for several cards (by the context's today unless given): one bills query and one totals call whatever their number. */
export async function owedByCard(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cards: CreditCard[],
  given?: CalendarDate,
): Promise<Map<string, number>> {
  const today = given ?? (await contextToday(ledger, ctx));
  const all = await billsOfCards(
    em,
    cards.map((card) => card.id),
  );
  const totals = await ledger.totals(
    ctx,
    all.filter((bill) => !bill.rolledOverAt).map((bill) => bill.id),
  );
  return new Map(
    cards.map((card) => [
      card.id,
      heldByCard(
        card,
        all.filter((bill) => bill.creditCardId === card.id),
        totals,
        today,
      ),
    ]),
  );
}
