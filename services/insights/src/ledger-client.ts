import { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import { InternalClient } from '@finance/shared/http/internal-client';
import type { InsightsRuntime } from './config.ts';

/** Insights reads ledger data only through ledger's internal API, with the caller's signed context. */
export const ledgerFor = (runtime: InsightsRuntime): LedgerInsightsClient => {
  const config = runtime.config;
  return new LedgerInsightsClient(new InternalClient(config.LEDGER_URL, config.INTERNAL_SECRET));
};
