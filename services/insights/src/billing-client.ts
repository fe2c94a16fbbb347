import { BillingInsightsClient } from '@finance/shared/clients/billing-insights-client';
import { InternalClient } from '@finance/shared/http/internal-client';
import type { InsightsRuntime } from './config.ts';

/** Insights learns bill status only from billing's internal API, with the caller's signed context. */
export const billingFor = (runtime: InsightsRuntime): BillingInsightsClient => {
  const config = runtime.config;
  return new BillingInsightsClient(new InternalClient(config.BILLING_URL, config.INTERNAL_SECRET));
};
