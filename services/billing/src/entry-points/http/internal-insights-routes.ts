import { BILLING_INSIGHTS_PATHS } from '@finance/shared/clients/billing-insights-client';
import { calendarDate } from '@finance/shared/contracts/common';
import { callerOf } from '@finance/shared/http/service-routes';
import { validateRequest } from '@finance/shared/http/validate';
import express, { type Router } from 'express';
import Joi from 'joi';
import type { BillingRuntime } from '../../config.ts';
import { currentBills } from '../../domain/bills/current-bills.ts';

/** Billing's reads for insights (signed context required, never routed by the gateway). */
export function mountInternalInsightsRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  const internal = express.Router();
  internal.get(BILLING_INSIGHTS_PATHS.currentBills, async (req, res) => {
    const { query } = validateRequest({ query: Joi.object({ today: calendarDate().required() }) }, req);
    res.json(await currentBills(orm.em.fork(), callerOf(res), (query as { today: string }).today));
  });
  router.use(internal);
}
