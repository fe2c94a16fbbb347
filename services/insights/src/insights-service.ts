import { ProcessedEventSchema } from '@finance/shared/queue/inbox';
import { OutboxEventSchema } from '@finance/shared/queue/outbox';
import type { ServiceDefinition } from '@finance/shared/service/start-service';
import type { InsightsConfig } from './config.ts';
import { GoalReminderSchema, GoalSchema, GoalValueSchema } from './data-access/entities/goal.ts';
import { NotificationSchema } from './data-access/entities/notification.ts';
import { SpendingLimitSchema } from './data-access/entities/spending-limit.ts';
import { insightsMigrations } from './data-access/migrations/index.ts';
import { mountInsightsRoutes } from './entry-points/http/insights-routes.ts';
import { mountInvestmentRoutes } from './entry-points/http/investment-routes.ts';
import { mountWebhookRoutes } from './entry-points/http/webhook-routes.ts';
import { startCashFlowAlertsWorker } from './entry-points/jobs/cash-flow-alerts-worker.ts';
import { startGoalRemindersWorker } from './entry-points/jobs/goal-reminders-worker.ts';
import { startInvestmentSnapshotsWorker } from './entry-points/jobs/investment-snapshots-worker.ts';
import { startInvestmentYieldsWorker } from './entry-points/jobs/investment-yields-worker.ts';
import { startLedgerEventsWorker } from './entry-points/jobs/ledger-events-worker.ts';
import { startLimitWindowsWorker } from './entry-points/jobs/limit-windows-worker.ts';
import { startTransactionChangesWorker } from './entry-points/jobs/transaction-changes-worker.ts';
import { startWebhookDeliveriesWorker } from './entry-points/jobs/webhook-deliveries-worker.ts';
import { startWebhookEventsWorker } from './entry-points/jobs/webhook-events-worker.ts';

/** Insights: limits, goals, notifications, reports, investments and webhooks, in the `insights` schema. */
export const insightsService: ServiceDefinition<InsightsConfig> = {
  name: 'insights',
  schema: 'insights',
  entities: [
    OutboxEventSchema,
    ProcessedEventSchema,
    SpendingLimitSchema,
    GoalSchema,
    GoalValueSchema,
    GoalReminderSchema,
    NotificationSchema,
  ],
  migrations: insightsMigrations,
  // webhook delivery jobs and the limit and reminder events leave through the outbox
  hasOutbox: true,
  mountRoutes: (app, runtime) => {
    mountInsightsRoutes(app, runtime);
    mountInvestmentRoutes(app, runtime);
    mountWebhookRoutes(app, runtime);
  },
  startWorkers: async (runtime) => [
    startLedgerEventsWorker(runtime),
    startTransactionChangesWorker(runtime),
    await startGoalRemindersWorker(runtime),
    await startLimitWindowsWorker(runtime),
    await startCashFlowAlertsWorker(runtime),
    startInvestmentSnapshotsWorker(runtime),
    await startInvestmentYieldsWorker(runtime),
    startWebhookEventsWorker(runtime),
    startWebhookDeliveriesWorker(runtime),
  ],
};
