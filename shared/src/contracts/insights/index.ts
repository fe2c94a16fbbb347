import type { RouteContract } from '../route.ts';
import { cashFlowRoutes } from './cash-flow.ts';
import { goalRoutes } from './goals.ts';
import { investmentRoutes } from './investments.ts';
import { notificationRoutes } from './notifications.ts';
import { reportRoutes } from './reports.ts';
import { spendingLimitRoutes } from './spending-limits.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every public route insights serves. */
export const insightsRoutes: RouteContract[] = [
  ...spendingLimitRoutes,
  ...goalRoutes,
  ...notificationRoutes,
  ...reportRoutes,
  ...cashFlowRoutes,
  ...investmentRoutes,
  ...webhookRoutes,
];
