import { OutboxEventSchema } from '@finance/shared/queue/outbox';
import type { ServiceDefinition } from '@finance/shared/service/start-service';
import type { LedgerConfig } from './config.ts';
import { AccountSchema } from './data-access/entities/account.ts';
import { referenceEntities } from './data-access/entities/reference-entities.ts';
import { ledgerMigrations } from './data-access/migrations/index.ts';
import { statementFileStore } from './domain/statements/file-store.ts';
import { mountAccountRoutes } from './entry-points/http/account-routes.ts';
import { mountCategorizationRuleRoutes } from './entry-points/http/categorization-rule-routes.ts';
import { mountInternalBillingRoutes } from './entry-points/http/internal-billing-routes.ts';
import { mountInternalContextRoutes } from './entry-points/http/internal-context-routes.ts';
import { mountInternalInsightsRoutes } from './entry-points/http/internal-insights-routes.ts';
import { mountJobRoutes } from './entry-points/http/job-routes.ts';
import { mountOpenBankingRoutes } from './entry-points/http/open-banking-routes.ts';
import { mountReferenceRoutes } from './entry-points/http/reference-routes.ts';
import { mountStatementRoutes } from './entry-points/http/statement-routes.ts';
import { mountTransactionRoutes } from './entry-points/http/transaction-routes.ts';
import { startCardMovesWorker } from './entry-points/jobs/card-moves-worker.ts';
import { startConsentRevocationWorker } from './entry-points/jobs/consent-revocation-worker.ts';
import { startImportWorker } from './entry-points/jobs/import-worker.ts';
import { startOpenBankingSyncWorker } from './entry-points/jobs/open-banking-sync-worker.ts';
import { startRecategorizationWorker } from './entry-points/jobs/recategorization-worker.ts';
import { startRecurrenceWorker } from './entry-points/jobs/recurrence-worker.ts';
import { startStatementFileWorker } from './entry-points/jobs/statement-file-worker.ts';

/** Ledger: accounts, categories, transactions, rules and imports, in the `ledger` schema. */
export const ledgerService: ServiceDefinition<LedgerConfig> = {
  name: 'ledger',
  schema: 'ledger',
  entities: [OutboxEventSchema, AccountSchema, ...referenceEntities],
  migrations: ledgerMigrations,
  hasOutbox: true,
  mountRoutes: (app, runtime) => {
    mountAccountRoutes(app, runtime);
    mountInternalBillingRoutes(app, runtime);
    mountReferenceRoutes(app, runtime);
    mountTransactionRoutes(app, runtime);
    mountCategorizationRuleRoutes(app, runtime);
    mountInternalInsightsRoutes(app, runtime);
    mountInternalContextRoutes(app, runtime);
    mountJobRoutes(app, runtime);
    mountOpenBankingRoutes(app, runtime);
    mountStatementRoutes(app, runtime);
  },
  fileStore: (runtime) => statementFileStore(() => runtime.orm.em.fork()),
  startWorkers: async (runtime) => [
    await startRecurrenceWorker(runtime),
    startRecategorizationWorker(runtime),
    startImportWorker(runtime),
    startStatementFileWorker(runtime),
    startConsentRevocationWorker(runtime),
    startCardMovesWorker(runtime),
    await startOpenBankingSyncWorker(runtime),
  ],
};
