import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PeriodQuery } from '@finance/shared/contracts/common';
import type { SubcategoryAggregate } from '@finance/shared/contracts/internal/ledger-for-insights';
import { percentagesLargestRemainder } from '../percentages.ts';
import { assertPeriod } from './period.ts';

function withPercentages(items: SubcategoryAggregate[]) {
  const percentages = percentagesLargestRemainder(items.map((item) => item.value));
  return items.map((item, index) => ({
    id: item.id,
    title: item.title,
    value: item.value,
    percentage: percentages[index],
    is_essential: item.is_essential,
    icon_name: item.icon_name,
    icon_background_color: item.icon_background_color,
    image: item.image ?? null,
  }));
}

/** Ledger groups and sums in one query (already sorted by value descending); insights adds the percentages. */
export async function subcategoryReport(ledger: LedgerInsightsClient, ctx: CallerContext, period: PeriodQuery) {
  const { items } = await ledger.bySubcategory(ctx, assertPeriod(period));
  return {
    expenses_subcategories: withPercentages(items.filter((item) => item.is_expense)),
    incomes_subcategories: withPercentages(items.filter((item) => !item.is_expense)),
  };
}
