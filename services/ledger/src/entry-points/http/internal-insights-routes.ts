import { ledgerForInsightsRoutes } from '@finance/shared/contracts/internal/ledger-for-insights';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import {
  categoryRefs,
  dreTotals,
  spendingByWindow,
  summaryOf,
  totalsBySubcategory,
} from '../../domain/aggregates/aggregates.ts';
import { cashFlowInputs } from '../../domain/cash-flow/cash-flow-inputs.ts';

const route = lookupIn(ledgerForInsightsRoutes);

/**
 * Aggregates insights reads over HTTP (it never queries the ledger schema); mounted behind the signed
 * context like every route, but absent from the public route table, so the gateway never exposes them.
 */
export function mountInternalInsightsRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('categoryRefs'), ({ body }, ctx) => categoryRefs(orm.em.fork(), ctx, body));
  mountRoute(router, route('spendingByWindow'), ({ body }, ctx) => spendingByWindow(orm.em.fork(), ctx, body.windows));
  mountRoute(router, route('totalsBySubcategory'), ({ query }, ctx) => totalsBySubcategory(orm.em.fork(), ctx, query));
  mountRoute(router, route('periodSummary'), ({ query }, ctx) => summaryOf(orm.em.fork(), ctx, query));
  mountRoute(router, route('cashFlowInputs'), ({ query }, ctx) => cashFlowInputs(orm.em.fork(), ctx, query));
  mountRoute(router, route('dreTotals'), ({ query }, ctx) => dreTotals(orm.em.fork(), ctx, query));
}
