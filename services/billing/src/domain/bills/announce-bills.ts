import { addDays, type CalendarDate, compare } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { BillTotals } from '@finance/shared/contracts/internal/ledger-for-billing';
import { isPastDue, latestPastDueDate } from '@finance/shared/holidays';
import type { BillEvent } from '@finance/shared/queue/catalogue';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type BillAnnouncement,
  billsToAnnounce,
  markAnnounced,
  type StoredBill,
} from '../../data-access/bill-repository.ts';
import { contextDays, jobContext } from '../context-today.ts';
import { billBalance } from './bill-balance.ts';

const BATCH = 500;
/** A bill first seen later than this after its closing or due date (a purchase dated long ago) is not announced. */
export const ANNOUNCE_LOOKBACK_DAYS = 7;

export const billEventData = (bill: StoredBill, totals: BillTotals | undefined): BillEvent => ({
  bill_id: bill.id,
  credit_card_id: bill.creditCardId,
  month: bill.referenceMonth,
  closing_date: bill.closingDate,
  due_date: bill.dueDate,
  balance: billBalance(totals),
});

/**
 * The daily job's notice of dates that passed, by each context's day (`at` read in the context's time zone; a
 * calendar date acts as today for every context): `bill.closed` for each bill whose closing date came,
 * `bill.overdue` for each one past its due date (by the business-day rule) with something owed. Balances are
 * read from the ledger before any transaction; each bill is stamped with its event in one transaction, so
 * reruns add nothing.
 */
export async function announceBills(em: EntityManager, ledger: LedgerBillingClient, at: CalendarDate | Date) {
  const announced = { closed: 0, overdue: 0 };
  const days = contextDays(ledger, at);
  const ranges: Record<BillAnnouncement, { from: CalendarDate; to: CalendarDate }> = {
    closed: { from: addDays(days.earliest, 1 - ANNOUNCE_LOOKBACK_DAYS), to: days.latest },
    overdue: { from: addDays(days.earliest, -ANNOUNCE_LOOKBACK_DAYS), to: latestPastDueDate(days.latest) },
  };
  const due = (kind: BillAnnouncement, bill: StoredBill, today: CalendarDate) =>
    kind === 'closed'
      ? compare(bill.closingDate, today) <= 0 && compare(bill.closingDate, addDays(today, -ANNOUNCE_LOOKBACK_DAYS)) > 0
      : isPastDue(bill.dueDate, today) && compare(bill.dueDate, addDays(today, -ANNOUNCE_LOOKBACK_DAYS)) >= 0;
  for (const kind of ['closed', 'overdue'] as BillAnnouncement[]) {
    // bills whose date has not come (or is too long gone) in their context's day
    const skipped: string[] = [];
    for (;;) {
      const found = await billsToAnnounce(em, kind, ranges[kind], skipped, BATCH);
      if (found.length === 0) break;
      const bills: StoredBill[] = [];
      for (const bill of found) {
        if (due(kind, bill, await days.todayOf(bill))) bills.push(bill);
        else skipped.push(bill.id);
      }
      const groups = new Map<string, StoredBill[]>();
      for (const bill of bills) {
        const key = `${bill.userId}:${bill.profileId ?? ''}`;
        groups.set(key, [...(groups.get(key) ?? []), bill]);
      }
      for (const group of groups.values()) {
        const ctx = jobContext(group[0]);
        const totals = new Map(
          (
            await ledger.totals(
              ctx,
              group.map((bill) => bill.id),
            )
          ).map((t) => [t.bill_id, t]),
        );
        for (const bill of group) {
          const data = billEventData(bill, totals.get(bill.id));
          await em.transactional(async (tx) => {
            if (!(await markAnnounced(tx, bill.id, kind))) return;
            // a bill paid off by its due date is not overdue: stamped, nothing sent
            if (kind === 'overdue' && data.balance <= 0) return;
            recordEvent(
              tx,
              kind === 'closed' ? 'bill.closed' : 'bill.overdue',
              { user_id: bill.userId, profile_id: bill.profileId },
              data,
            );
            announced[kind] += 1;
          });
        }
      }
    }
  }
  return announced;
}
