import { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import { InternalClient } from '@finance/shared/http/internal-client';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import type { InsightsConfig } from './config.ts';

/** Insights reads ledger data only through ledger's internal API, with the caller's signed context. */
export const ledgerFor = (runtime: ServiceRuntime): LedgerInsightsClient => {
  const config = runtime.config as InsightsConfig;
  return new LedgerInsightsClient(new InternalClient(config.LEDGER_URL, config.INTERNAL_SECRET));
};
