import type { AnyRoute } from '../route.ts';
import { billingForInsightsRoutes } from './billing-for-insights.ts';
import { billingForLedgerRoutes } from './billing-for-ledger.ts';
import { ledgerForBillingRoutes } from './ledger-for-billing.ts';
import { ledgerForInsightsRoutes } from './ledger-for-insights.ts';
import { ledgerForServicesRoutes } from './ledger-for-services.ts';

/** The service-to-service table: each service serves its own, the gateway never routes nor documents them. */
export const internalRoutes: AnyRoute[] = [
  ...ledgerForBillingRoutes,
  ...ledgerForInsightsRoutes,
  ...ledgerForServicesRoutes,
  ...billingForLedgerRoutes,
  ...billingForInsightsRoutes,
];
