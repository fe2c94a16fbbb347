import { investmentRoutes } from '@finance/shared/contracts/insights/investments';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { InsightsRuntime } from '../../config.ts';
import { investmentYieldReport, type YieldReportQuery } from '../../domain/investments/yield-report.ts';
import { ledgerFor } from '../../ledger-client.ts';

export function mountInvestmentRoutes(router: Router, runtime: InsightsRuntime): void {
  const ledger = ledgerFor(runtime);
  mountRoute(router, routeById(investmentRoutes, 'investmentYield'), (input, ctx) =>
    investmentYieldReport(runtime.orm.em.fork(), ledger, ctx, input.query as YieldReportQuery),
  );
}
