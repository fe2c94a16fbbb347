import { ProcessedEventSchema } from '@finance/shared/queue/inbox';
import { OutboxEventSchema } from '@finance/shared/queue/outbox';
import type { ServiceDefinition } from '@finance/shared/service/start-service';
import type { BillingConfig } from './config.ts';
import { CreditCardSchema } from './data-access/entities/credit-card.ts';
import { billingMigrations } from './data-access/migrations/index.ts';
import { mountBillRoutes } from './entry-points/http/bill-routes.ts';
import { mountCardRoutes } from './entry-points/http/card-routes.ts';
import { mountInternalInsightsRoutes } from './entry-points/http/internal-insights-routes.ts';
import { mountInternalLedgerRoutes } from './entry-points/http/internal-ledger-routes.ts';
import { startBillRolloverWorker } from './entry-points/jobs/bill-rollover-worker.ts';
import { startCardLedgerSyncWorker } from './entry-points/jobs/card-ledger-sync-worker.ts';
import { startLedgerEventsWorker } from './entry-points/jobs/ledger-events-worker.ts';

/** Billing: credit cards and their bills, in the `billing` schema. */
export const billingService: ServiceDefinition<BillingConfig> = {
  name: 'billing',
  schema: 'billing',
  entities: [OutboxEventSchema, ProcessedEventSchema, CreditCardSchema],
  migrations: billingMigrations,
  // bill.closed / bill.overdue / bill.paid leave through the outbox (webhooks); the ledger's payments come in (inbox)
  hasOutbox: true,
  mountRoutes: (app, runtime) => {
    mountCardRoutes(app, runtime);
    mountBillRoutes(app, runtime);
    mountInternalLedgerRoutes(app, runtime);
    mountInternalInsightsRoutes(app, runtime);
  },
  startWorkers: async (runtime) => [
    await startBillRolloverWorker(runtime),
    await startCardLedgerSyncWorker(runtime),
    startLedgerEventsWorker(runtime),
  ],
};
