import { goalRoutes } from '@finance/shared/contracts/insights/goals';
import { notificationRoutes } from '@finance/shared/contracts/insights/notifications';
import { reportRoutes } from '@finance/shared/contracts/insights/reports';
import { spendingLimitRoutes } from '@finance/shared/contracts/insights/spending-limits';
import type { Period } from '@finance/shared/contracts/internal/ledger-for-insights';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { InsightsRuntime } from '../../config.ts';
import { addGoalValue, deleteGoalValue } from '../../domain/goals/goal-values.ts';
import {
  createGoal,
  deleteGoal,
  type GoalInput,
  getGoal,
  listGoals,
  updateGoal,
} from '../../domain/goals/manage-goals.ts';
import {
  createSpendingLimit,
  deleteSpendingLimit,
  getSpendingLimit,
  listSpendingLimits,
  type SpendingLimitInput,
  updateSpendingLimit,
} from '../../domain/limits/manage-spending-limits.ts';
import { listNotifications, markNotification } from '../../domain/notifications/manage-notifications.ts';
import { dreReport } from '../../domain/reports/dre-report.ts';
import { subcategoryReport } from '../../domain/reports/subcategory-report.ts';
import { summaryReport } from '../../domain/reports/summary-report.ts';
import { ledgerFor } from '../../ledger-client.ts';

const all = [...spendingLimitRoutes, ...goalRoutes, ...notificationRoutes, ...reportRoutes];
const route = (operationId: string) => routeById(all, operationId);
type Page = { limit: number; cursor?: string };

export function mountInsightsRoutes(router: Router, runtime: InsightsRuntime): void {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  const billing = billingFor(runtime);
  const id = (params: Record<string, unknown>) => String(params.id);

  mountRoute(router, route('createSpendingLimit'), (input, ctx) =>
    createSpendingLimit(
      orm.em.fork(),
      ledger,
      ctx,
      input.body as SpendingLimitInput & { amount: number; category_id: string },
    ),
  );
  mountRoute(router, route('listSpendingLimits'), (input, ctx) =>
    listSpendingLimits(orm.em.fork(), ledger, ctx, input.query as Page),
  );
  mountRoute(router, route('getSpendingLimit'), (input, ctx) =>
    getSpendingLimit(orm.em.fork(), ledger, ctx, id(input.params)),
  );
  mountRoute(router, route('updateSpendingLimit'), (input, ctx) =>
    updateSpendingLimit(orm.em.fork(), ledger, ctx, id(input.params), input.body as SpendingLimitInput),
  );
  mountRoute(router, route('deleteSpendingLimit'), (input, ctx) =>
    deleteSpendingLimit(orm.em.fork(), ledger, ctx, id(input.params)),
  );

  mountRoute(router, route('createGoal'), (input, ctx) =>
    createGoal(
      orm.em.fork(),
      ledger,
      ctx,
      input.body as GoalInput & { title: string; amount: number; deadline: string },
    ),
  );
  mountRoute(router, route('listGoals'), (input, ctx) => listGoals(orm.em.fork(), ledger, ctx, input.query as Page));
  mountRoute(router, route('getGoal'), (input, ctx) => getGoal(orm.em.fork(), ledger, ctx, id(input.params)));
  mountRoute(router, route('updateGoal'), (input, ctx) =>
    updateGoal(orm.em.fork(), ledger, ctx, id(input.params), input.body as GoalInput),
  );
  mountRoute(router, route('deleteGoal'), (input, ctx) => deleteGoal(orm.em.fork(), ledger, ctx, id(input.params)));
  mountRoute(router, route('createGoalValue'), (input, ctx) =>
    addGoalValue(
      orm.em.fork(),
      ctx,
      id(input.params),
      input.body as { date: string; value: number; is_expense: boolean },
    ),
  );
  mountRoute(router, route('deleteGoalValue'), (input, ctx) =>
    deleteGoalValue(orm.em.fork(), ctx, id(input.params), String(input.params.valueId)),
  );

  mountRoute(router, route('listNotifications'), (input, ctx) =>
    listNotifications(orm.em.fork(), ctx, input.query as Page & { unread?: boolean }),
  );
  mountRoute(router, route('updateNotification'), (input, ctx) =>
    markNotification(orm.em.fork(), ctx, id(input.params), (input.body as { read: boolean }).read),
  );

  mountRoute(router, route('subcategoryReport'), (input, ctx) =>
    subcategoryReport(ledger, ctx, input.query as unknown as Period),
  );
  mountRoute(router, route('summaryReport'), (input, ctx) =>
    summaryReport(ledger, billing, ctx, input.query as unknown as Period),
  );
  mountRoute(router, route('businessDre'), (input, ctx) => dreReport(ledger, ctx, input.query as unknown as Period));
}
