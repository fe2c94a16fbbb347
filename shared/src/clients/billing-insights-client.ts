import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';

export const BILLING_INSIGHTS_PATHS = {
  currentBills: '/internal/v1/bills/current',
} as const;

/** A card's current bill: the one whose period holds today (open date ≤ today < closing date). */
export interface CurrentBill {
  id: string;
  credit_card_id: string;
  /** `YYYY-MM-DD` */
  closing_date: string;
}

/** Insights' typed view of billing's internal reads; every call carries the caller's signed context. */
export class BillingInsightsClient {
  private readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /** The stored current bill of each live card of the context on `today` (its day; cards without one are absent). */
  currentBills(context: CallerContext, today: string): Promise<{ bills: CurrentBill[] }> {
    return this.http.get(BILLING_INSIGHTS_PATHS.currentBills, { context, query: { today } });
  }
}
