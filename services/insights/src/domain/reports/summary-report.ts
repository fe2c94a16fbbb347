import type { BillingInsightsClient } from '@finance/shared/clients/billing-insights-client';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PeriodQuery } from '@finance/shared/contracts/common';
import { contextToday } from '../context-today.ts';
import { assertPeriod } from './period.ts';

/**
 * Totals computed by ledger in one statement with the context's preferences (docs/decisions.md §10); the open
 * bills whose purchases show_open_bill and include_current_bill_in_to_pay govern come from billing.
 */
export async function summaryReport(
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  ctx: CallerContext,
  period: PeriodQuery,
  today?: string,
) {
  const checked = assertPeriod(period);
  const day = today ?? (await contextToday(ledger, ctx));
  const { bills } = await billing.currentBills(ctx, day);
  return ledger.summary(ctx, { ...checked, today: day, open_bill_ids: bills.map((bill) => bill.id) });
}
