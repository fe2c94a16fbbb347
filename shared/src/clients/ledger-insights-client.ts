import type { CallerContext } from '../context/signed-context.ts';
import type { PeriodQuery } from '../contracts/common.ts';
import {
  type CashFlowInputs,
  type CashFlowQuery,
  type CategoryRefs,
  type DreGroupTotal,
  ledgerForInsightsRoutes,
  type SpendingWindow,
  type SubcategoryAggregate,
  type Summary,
  type SummaryQuery,
} from '../contracts/internal/ledger-for-insights.ts';
import { ledgerForServicesRoutes } from '../contracts/internal/ledger-for-services.ts';
import { lookupIn } from '../contracts/route.ts';
import type { InternalClient } from '../http/internal-client.ts';

const route = lookupIn(ledgerForInsightsRoutes);
const contextRoute = lookupIn(ledgerForServicesRoutes);

const SPENDING_CHUNK = 1000;

/** Insights' typed view of ledger's internal aggregates; every call carries the caller's signed context. */
export class LedgerInsightsClient {
  private readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /** The IANA zone of the context's "today" (live from ledger). */
  async timeZone(context: CallerContext): Promise<string> {
    const body: { time_zone: string } = await this.http.send(contextRoute('getContextTimeZone'), { context });
    return body.time_zone;
  }

  categoryRefs(context: CallerContext, categoryIds: string[], subcategoryIds: string[] = []): Promise<CategoryRefs> {
    if (categoryIds.length === 0 && subcategoryIds.length === 0) {
      return Promise.resolve({ categories: [], subcategories: [] });
    }
    return this.http.send(route('categoryRefs'), {
      context,
      body: { category_ids: categoryIds, subcategory_ids: subcategoryIds },
    });
  }

  /** Spent cents per window key, for any number of windows in one call (chunks of 1000 beyond that). */
  async spending(context: CallerContext, windows: SpendingWindow[]): Promise<Record<string, number>> {
    const spent: Record<string, number> = {};
    for (let start = 0; start < windows.length; start += SPENDING_CHUNK) {
      const answer: { spent: Record<string, number> } = await this.http.send(route('spendingByWindow'), {
        context,
        body: { windows: windows.slice(start, start + SPENDING_CHUNK) },
      });
      Object.assign(spent, answer.spent);
    }
    return spent;
  }

  bySubcategory(context: CallerContext, period: PeriodQuery): Promise<{ items: SubcategoryAggregate[] }> {
    return this.http.send(route('totalsBySubcategory'), { context, query: { ...period } });
  }

  summary(context: CallerContext, query: SummaryQuery): Promise<Summary> {
    return this.http.send(route('periodSummary'), { context, query: { ...query } });
  }

  cashFlowInputs(context: CallerContext, query: CashFlowQuery): Promise<CashFlowInputs> {
    return this.http.send(route('cashFlowInputs'), { context, query: { ...query } });
  }

  dre(context: CallerContext, period: PeriodQuery): Promise<{ groups: DreGroupTotal[] }> {
    return this.http.send(route('dreTotals'), { context, query: { ...period } });
  }
}
