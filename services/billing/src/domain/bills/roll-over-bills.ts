import { addDays, type CalendarDate } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { PreviousBalanceEntry } from '@finance/shared/contracts/internal/ledger-for-billing';
import { isPastDue, latestPastDueDate } from '@finance/shared/holidays';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  claimBillsForRollover,
  markRolledOver,
  oldestDueBillPerCard,
  releaseBills,
  rolledMonthsAfter,
  type StoredBill,
} from '../../data-access/bill-repository.ts';
import { CreditCardSchema } from '../../data-access/entities/credit-card.ts';
import { contextDays, jobContext } from '../context-today.ts';
import { billBalance } from './bill-balance.ts';
import { ensureBills } from './ensure-bills.ts';
import { carryOf, carryTargetMonth } from './rollover-rules.ts';

const BATCH = 500;

function byContext(bills: StoredBill[]): Map<string, StoredBill[]> {
  const groups = new Map<string, StoredBill[]>();
  for (const bill of bills) {
    const key = `${bill.userId}:${bill.profileId ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), bill]);
  }
  return groups;
}

/**
 * Carries the remainder of every bill past its due date into the next bill the rollover has not handled yet,
 * as one `is_previous_balance` entry: an expense for a debt, a credit for an overpayment. "Past due" is by the
 * context's day (`at` read in the context's time zone; a calendar date acts as today for every context) and
 * the business-day rule: a due date on a weekend or holiday is payable until the next business day. Each
 * round takes the oldest unhandled bill of every card and reads its totals after the previous round's entries
 * landed, so a carried remainder is carried on along the chain up to the open bill, in date order, however
 * many days were missed. Each bill is claimed first (a payment in progress makes the card wait for the next
 * run); the ledger keys entries by source bill, so reruns and crashes never duplicate. Returns the entries
 * asked for.
 */
export async function rollOverBills(em: EntityManager, ledger: LedgerBillingClient, at: CalendarDate | Date) {
  let carried = 0;
  const days = contextDays(ledger, at);
  // no context's day is later than `latest`: bills past due nowhere yet are not even read
  const dueBefore = addDays(latestPastDueDate(days.latest), 1);
  // cards whose oldest bill is claimed by a payment, or not yet past due in its context's day, wait for a later run
  const skipCards = new Set<string>();
  for (;;) {
    const due = await oldestDueBillPerCard(em, dueBefore, [...skipCards], BATCH);
    if (due.length === 0) return { carried };
    const pastDue: StoredBill[] = [];
    for (const bill of due) {
      if (isPastDue(bill.dueDate, await days.todayOf(bill))) pastDue.push(bill);
      else skipCards.add(bill.creditCardId);
    }
    const claimed = await claimBillsForRollover(
      em,
      pastDue.map((bill) => bill.id),
    );
    for (const bill of pastDue) if (!claimed.has(bill.id)) skipCards.add(bill.creditCardId);
    const mine = pastDue.filter((bill) => claimed.has(bill.id));
    try {
      for (const bills of byContext(mine).values()) carried += await rollOverContext(em, ledger, bills);
    } finally {
      await releaseBills(
        em,
        mine.map((bill) => bill.id),
      );
    }
  }
}

/** One round for one context's bills (at most one per card): one totals call and one entries call. */
async function rollOverContext(em: EntityManager, ledger: LedgerBillingClient, bills: StoredBill[]) {
  const ctx = jobContext(bills[0]);
  const totals = new Map(
    (
      await ledger.totals(
        ctx,
        bills.map((bill) => bill.id),
      )
    ).map((t) => [t.bill_id, t]),
  );
  const owing = bills.filter((bill) => {
    const t = totals.get(bill.id);
    return t && carryOf(billBalance(t));
  });
  const entries: PreviousBalanceEntry[] = [];
  const cards = await em.find(CreditCardSchema, { id: { $in: [...new Set(owing.map((b) => b.creditCardId))] } });
  for (const card of cards) {
    for (const source of owing.filter((bill) => bill.creditCardId === card.id)) {
      const month = carryTargetMonth(
        source.referenceMonth,
        await rolledMonthsAfter(em, card.id, source.referenceMonth),
      );
      const target = (await em.transactional((tx) => ensureBills(tx, card, [month]))).rows.get(month)!;
      const carry = carryOf(billBalance(totals.get(source.id)!))!;
      entries.push({
        source_bill_id: source.id,
        bill_id: target.id,
        credit_card_id: card.id,
        amount: carry.amount,
        is_expense: carry.is_expense,
        date: source.closingDate,
        billed_at: target.closingDate,
        title: 'Saldo anterior da fatura',
      });
    }
  }
  const { placed } = await ledger.addPreviousBalances(ctx, entries);
  await markRolledOver(
    em,
    bills.map((bill) => bill.id),
    placed.map((entry) => ({ id: entry.source_bill_id, carried_to: entry.bill_id })),
  );
  return entries.length;
}
