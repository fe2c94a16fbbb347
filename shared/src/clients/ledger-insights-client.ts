import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';
import { fetchTimeZone } from './ledger-context-client.ts';

/** Internal paths ledger serves for insights (never routed by the gateway). */
export const LEDGER_INSIGHTS_PATHS = {
  categoryRefs: '/internal/v1/aggregates/category-refs',
  spending: '/internal/v1/aggregates/spending',
  bySubcategory: '/internal/v1/aggregates/by-subcategory',
  summary: '/internal/v1/aggregates/summary',
  dre: '/internal/v1/aggregates/dre',
} as const;

const SPENDING_CHUNK = 1000;

/** A category as the public Category record shows it. */
export interface CategoryRef {
  id: string;
  name: string;
  is_expense: boolean;
  is_essential: boolean;
  is_hidden: boolean;
  icon: string | null;
  icon_name: string;
  icon_background_color: string;
  image: string | null;
  profile_id: string | null;
  user_id: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubcategoryRef {
  id: string;
  category_id: string;
  name: string;
}

export interface CategoryRefs {
  categories: CategoryRef[];
  subcategories: SubcategoryRef[];
}

/** One spending window: live expenses of a category (or subcategory) between two dates, inclusive. */
export interface SpendingWindow {
  key: string;
  category_id: string;
  subcategory_id: string | null;
  from: string;
  to: string;
}

export interface SubcategoryAggregate {
  id: string;
  title: string;
  value: number;
  is_expense: boolean;
  is_essential: boolean;
  icon_name: string;
  icon_background_color: string;
  image: string | null;
}

export interface Summary {
  total_balance: number;
  income: number;
  expenses: number;
  to_pay: number;
  to_receive: number;
}

export interface DreGroupTotal {
  dre_group: string;
  income: number;
  expenses: number;
}

export interface Period {
  start_date: string;
  end_date: string;
}

/** Insights' typed view of ledger's internal aggregates; every call carries the caller's signed context. */
export class LedgerInsightsClient {
  private readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /** The IANA zone of the context's "today" (live from ledger). */
  timeZone(context: CallerContext): Promise<string> {
    return fetchTimeZone(this.http, context);
  }

  categoryRefs(context: CallerContext, categoryIds: string[], subcategoryIds: string[] = []): Promise<CategoryRefs> {
    if (categoryIds.length === 0 && subcategoryIds.length === 0) {
      return Promise.resolve({ categories: [], subcategories: [] });
    }
    return this.http.post(LEDGER_INSIGHTS_PATHS.categoryRefs, {
      context,
      body: { category_ids: categoryIds, subcategory_ids: subcategoryIds },
    });
  }

  /** Spent cents per window key, for any number of windows in one call (chunks of 1000 beyond that). */
  async spending(context: CallerContext, windows: SpendingWindow[]): Promise<Record<string, number>> {
    const spent: Record<string, number> = {};
    for (let start = 0; start < windows.length; start += SPENDING_CHUNK) {
      const answer = await this.http.post<{ spent: Record<string, number> }>(LEDGER_INSIGHTS_PATHS.spending, {
        context,
        body: { windows: windows.slice(start, start + SPENDING_CHUNK) },
      });
      Object.assign(spent, answer.spent);
    }
    return spent;
  }

  bySubcategory(context: CallerContext, period: Period): Promise<{ items: SubcategoryAggregate[] }> {
    return this.http.get(LEDGER_INSIGHTS_PATHS.bySubcategory, { context, query: { ...period } });
  }

  /** `open_bill_ids`: billing's current bills of the context, whose purchases the open-bill preferences govern. */
  summary(context: CallerContext, period: Period & { today: string; open_bill_ids: string[] }): Promise<Summary> {
    return this.http.get(LEDGER_INSIGHTS_PATHS.summary, { context, query: { ...period } });
  }

  dre(context: CallerContext, period: Period): Promise<{ groups: DreGroupTotal[] }> {
    return this.http.get(LEDGER_INSIGHTS_PATHS.dre, { context, query: { ...period } });
  }
}
