import { addDays, type CalendarDate, todayUtc } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import { todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';

/** The context's today: the clock read in the zone the context chose in ledger (live, so a change shows at once). */
export async function contextToday(ledger: LedgerBillingClient, ctx: CallerContext): Promise<CalendarDate> {
  return todayIn(await ledger.timeZone(ctx));
}

/** The context of a bill row, as the daily jobs call the ledger for it. */
export function jobContext(row: { userId: string; profileId: string | null }): CallerContext {
  return { userId: row.userId, profileId: row.profileId, business: false, keyId: null };
}

/**
 * Each context's day for one run of a daily job: `at` read in the context's zone (asked of the ledger once
 * per context, never under a transaction), or a calendar date that is today for every context. `earliest`
 * and `latest` bound every context's day (zones run from UTC−12 to UTC+14), so a query can read every row
 * some context may act on before the per-context check.
 */
export function contextDays(ledger: LedgerBillingClient, at: CalendarDate | Date) {
  const fixed = typeof at === 'string' ? at : null;
  const utc = fixed ?? todayUtc(at as Date);
  const known = new Map<string, CalendarDate>();
  return {
    earliest: fixed ?? addDays(utc, -1),
    latest: fixed ?? addDays(utc, 1),
    async todayOf(row: { userId: string; profileId: string | null }): Promise<CalendarDate> {
      if (fixed) return fixed;
      const key = `${row.userId}:${row.profileId ?? ''}`;
      let today = known.get(key);
      if (!today) {
        today = todayIn(await ledger.timeZone(jobContext(row)), at as Date);
        known.set(key, today);
      }
      return today;
    },
  };
}
