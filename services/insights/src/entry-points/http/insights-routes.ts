import { cashFlowRoutes } from '@finance/shared/contracts/insights/cash-flow';
import { goalRoutes } from '@finance/shared/contracts/insights/goals';
import { notificationRoutes } from '@finance/shared/contracts/insights/notifications';
import { reportRoutes } from '@finance/shared/contracts/insights/reports';
import { spendingLimitRoutes } from '@finance/shared/contracts/insights/spending-limits';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { InsightsRuntime } from '../../config.ts';
import { cashFlowReport } from '../../domain/cash-flow/cash-flow-report.ts';
import { addGoalValue, deleteGoalValue } from '../../domain/goals/goal-values.ts';
import { createGoal, deleteGoal, getGoal, listGoals, updateGoal } from '../../domain/goals/manage-goals.ts';
import {
  createSpendingLimit,
  deleteSpendingLimit,
  getSpendingLimit,
  listSpendingLimits,
  updateSpendingLimit,
} from '../../domain/limits/manage-spending-limits.ts';
import { listNotifications, markNotification } from '../../domain/notifications/manage-notifications.ts';
import { dreReport } from '../../domain/reports/dre-report.ts';
import { subcategoryReport } from '../../domain/reports/subcategory-report.ts';
import { summaryReport } from '../../domain/reports/summary-report.ts';
import { ledgerFor } from '../../ledger-client.ts';
import { cashFlowGate } from './cash-flow-gate.ts';

const route = lookupIn([
  ...spendingLimitRoutes,
  ...goalRoutes,
  ...notificationRoutes,
  ...reportRoutes,
  ...cashFlowRoutes,
]);

export function mountInsightsRoutes(router: Router, runtime: InsightsRuntime): void {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  const billing = billingFor(runtime);

  mountRoute(router, route('createSpendingLimit'), ({ body }, ctx) =>
    createSpendingLimit(orm.em.fork(), ledger, ctx, body),
  );
  mountRoute(router, route('listSpendingLimits'), ({ query }, ctx) =>
    listSpendingLimits(orm.em.fork(), ledger, ctx, query),
  );
  mountRoute(router, route('getSpendingLimit'), ({ params }, ctx) =>
    getSpendingLimit(orm.em.fork(), ledger, ctx, params.id),
  );
  mountRoute(router, route('updateSpendingLimit'), ({ params, body }, ctx) =>
    updateSpendingLimit(orm.em.fork(), ledger, ctx, params.id, body),
  );
  mountRoute(router, route('deleteSpendingLimit'), ({ params }, ctx) =>
    deleteSpendingLimit(orm.em.fork(), ledger, ctx, params.id),
  );

  mountRoute(router, route('createGoal'), ({ body }, ctx) => createGoal(orm.em.fork(), ledger, ctx, body));
  mountRoute(router, route('listGoals'), ({ query }, ctx) => listGoals(orm.em.fork(), ledger, ctx, query));
  mountRoute(router, route('getGoal'), ({ params }, ctx) => getGoal(orm.em.fork(), ledger, ctx, params.id));
  mountRoute(router, route('updateGoal'), ({ params, body }, ctx) =>
    updateGoal(orm.em.fork(), ledger, ctx, params.id, body),
  );
  mountRoute(router, route('deleteGoal'), ({ params }, ctx) => deleteGoal(orm.em.fork(), ledger, ctx, params.id));
  mountRoute(router, route('createGoalValue'), ({ params, body }, ctx) =>
    addGoalValue(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, route('deleteGoalValue'), ({ params }, ctx) =>
    deleteGoalValue(orm.em.fork(), ctx, params.id, params.valueId),
  );

  mountRoute(router, route('listNotifications'), ({ query }, ctx) => listNotifications(orm.em.fork(), ctx, query));
  mountRoute(router, route('updateNotification'), ({ params, body }, ctx) =>
    markNotification(orm.em.fork(), ctx, params.id, body.read),
  );

  mountRoute(router, route('subcategoryReport'), ({ query }, ctx) => subcategoryReport(ledger, ctx, query));
  mountRoute(router, route('summaryReport'), ({ query }, ctx) => summaryReport(ledger, billing, ctx, query));
  mountRoute(router, route('businessDre'), ({ query }, ctx) => dreReport(ledger, ctx, query));
  const forecasts = cashFlowGate(runtime.config.CASH_FLOW_IN_FLIGHT);
  mountRoute(router, route('cashFlowReport'), ({ query }, ctx) =>
    forecasts(() => cashFlowReport(orm.em.fork(), ledger, billing, ctx, query)),
  );
}
