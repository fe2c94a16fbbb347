import type { CalendarDate } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import { todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';

/** The context's today: the clock read in the zone the context chose in ledger (live, so a change shows at once). */
export async function contextToday(ledger: LedgerInsightsClient, ctx: CallerContext): Promise<CalendarDate> {
  return todayIn(await ledger.timeZone(ctx));
}
