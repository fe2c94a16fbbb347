import type { CallerContext } from '../context/signed-context.ts';
import {
  type BillAhead,
  type BillsAheadInput,
  billingForInsightsRoutes,
  type CurrentBill,
} from '../contracts/internal/billing-for-insights.ts';
import { lookupIn } from '../contracts/route.ts';
import type { InternalClient } from '../http/internal-client.ts';

const route = lookupIn(billingForInsightsRoutes);

/** Insights' typed view of billing's internal reads; every call carries the caller's signed context. */
export class BillingInsightsClient {
  private readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /** The stored current bill of each live card of the context on `today` (its day; cards without one are absent). */
  currentBills(context: CallerContext, today: string): Promise<{ bills: CurrentBill[] }> {
    return this.http.send(route('listCurrentBills'), { context, query: { today } });
  }

  /** The bills still to be paid by `until`, with the forecast's projected purchases placed in them. */
  billsAhead(context: CallerContext, input: BillsAheadInput): Promise<{ bills: BillAhead[] }> {
    return this.http.send(route('listBillsAhead'), { context, body: input });
  }
}
