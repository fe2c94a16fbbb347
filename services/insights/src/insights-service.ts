import { ProcessedEventSchema } from '@finance/shared/queue/inbox';
import type { ServiceDefinition } from '@finance/shared/service/start-service';
import { GoalReminderSchema, GoalSchema, GoalValueSchema } from './data-access/entities/goal.ts';
import { NotificationSchema } from './data-access/entities/notification.ts';
import { SpendingLimitSchema } from './data-access/entities/spending-limit.ts';
import { insightsMigrations } from './data-access/migrations/index.ts';
import { mountInsightsRoutes } from './entry-points/http/insights-routes.ts';
import { mountInvestmentRoutes } from './entry-points/http/investment-routes.ts';
import { startGoalRemindersWorker } from './entry-points/jobs/goal-reminders-worker.ts';
import { startInvestmentSnapshotsWorker } from './entry-points/jobs/investment-snapshots-worker.ts';
import { startInvestmentYieldsWorker } from './entry-points/jobs/investment-yields-worker.ts';
import { startLedgerEventsWorker } from './entry-points/jobs/ledger-events-worker.ts';
import { startLimitWindowsWorker } from './entry-points/jobs/limit-windows-worker.ts';

/** Insights: limits, goals, notifications, reports and investments, in the `insights` schema. */
export const insightsService: ServiceDefinition = {
  name: 'insights',
  schema: 'insights',
  entities: [
    ProcessedEventSchema,
    SpendingLimitSchema,
    GoalSchema,
    GoalValueSchema,
    GoalReminderSchema,
    NotificationSchema,
  ],
  migrations: insightsMigrations,
  mountRoutes: (app, runtime) => {
    mountInsightsRoutes(app, runtime);
    mountInvestmentRoutes(app, runtime);
  },
  startWorkers: async (runtime) => [
    startLedgerEventsWorker(runtime),
    await startGoalRemindersWorker(runtime),
    await startLimitWindowsWorker(runtime),
    startInvestmentSnapshotsWorker(runtime),
    await startInvestmentYieldsWorker(runtime),
  ],
};
