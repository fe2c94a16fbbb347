import type { CalendarDate } from '@finance/shared/calendar';
import type { BillTotals, LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillEvent } from '@finance/shared/queue/catalogue';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type BillAnnouncement,
  type BillRow,
  billsToAnnounce,
  markAnnounced,
} from '../../data-access/bill-repository.ts';

const BATCH = 500;
/** A bill first seen later than this after its closing or due date (a purchase dated long ago) is not announced. */
export const ANNOUNCE_LOOKBACK_DAYS = 7;

export const billEventData = (bill: BillRow, totals: BillTotals | undefined): BillEvent => ({
  bill_id: bill.id,
  credit_card_id: bill.creditCardId,
  month: bill.referenceMonth,
  closing_date: bill.closingDate,
  due_date: bill.dueDate,
  balance: totals ? totals.purchases - totals.credits - totals.payments : 0,
});

/**
 * The daily job's notice of dates that passed: `bill.closed` for each bill whose closing date came,
 * `bill.overdue` for each one past its due date with something owed. Balances are read from the ledger
 * before any transaction; each bill is stamped with its event in one transaction, so reruns add nothing.
 */
export async function announceBills(em: EntityManager, ledger: LedgerBillingClient, today: CalendarDate) {
  const announced = { closed: 0, overdue: 0 };
  for (const kind of ['closed', 'overdue'] as BillAnnouncement[]) {
    for (;;) {
      const bills = await billsToAnnounce(em, kind, today, ANNOUNCE_LOOKBACK_DAYS, BATCH);
      if (bills.length === 0) break;
      const groups = new Map<string, BillRow[]>();
      for (const bill of bills) {
        const key = `${bill.userId}:${bill.profileId ?? ''}`;
        groups.set(key, [...(groups.get(key) ?? []), bill]);
      }
      for (const group of groups.values()) {
        const ctx: CallerContext = {
          userId: group[0].userId,
          profileId: group[0].profileId,
          business: false,
          keyId: null,
        };
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
