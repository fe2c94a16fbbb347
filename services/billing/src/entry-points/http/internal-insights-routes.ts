import { billingForInsightsRoutes } from '@finance/shared/contracts/internal/billing-for-insights';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { BillingRuntime } from '../../config.ts';
import { billsAhead } from '../../domain/bills/bills-ahead.ts';
import { currentBills } from '../../domain/bills/current-bills.ts';
import { ledgerFor } from '../../ledger-client.ts';

const route = lookupIn(billingForInsightsRoutes);

/** Billing's reads for insights (signed context required, never routed by the gateway). */
export function mountInternalInsightsRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('listCurrentBills'), ({ query }, ctx) => currentBills(orm.em.fork(), ctx, query.today));
  mountRoute(router, route('listBillsAhead'), ({ body }, ctx) =>
    billsAhead(orm.em.fork(), ledgerFor(runtime), ctx, body),
  );
}
