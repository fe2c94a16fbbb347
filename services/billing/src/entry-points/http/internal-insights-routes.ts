import { BILLING_INSIGHTS_PATHS } from '@finance/shared/clients/billing-insights-client';
import { callerOf } from '@finance/shared/http/service-routes';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import express, { type Router } from 'express';
import { currentBills } from '../../domain/bills/current-bills.ts';

/** Billing's reads for insights (signed context required, never routed by the gateway). */
export function mountInternalInsightsRoutes(router: Router, runtime: ServiceRuntime): void {
  const { orm } = runtime;
  const internal = express.Router();
  internal.get(BILLING_INSIGHTS_PATHS.currentBills, async (_req, res) => {
    res.json(await currentBills(orm.em.fork(), callerOf(res)));
  });
  router.use(internal);
}
