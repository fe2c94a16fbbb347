import { investmentRoutes } from '@finance/shared/contracts/insights/investments';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { InsightsRuntime } from '../../config.ts';
import { investmentYieldReport } from '../../domain/investments/yield-report.ts';
import { ledgerFor } from '../../ledger-client.ts';

const route = lookupIn(investmentRoutes);

export function mountInvestmentRoutes(router: Router, runtime: InsightsRuntime): void {
  const ledger = ledgerFor(runtime);
  mountRoute(router, route('investmentYield'), ({ query }, ctx) =>
    investmentYieldReport(runtime.orm.em.fork(), ledger, ctx, query),
  );
}
