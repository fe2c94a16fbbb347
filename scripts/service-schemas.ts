import { billingService } from '../services/billing/src/billing-service.ts';
import { gatewayEntities } from '../services/gateway/src/data-access/entities.ts';
import { gatewayMigrations } from '../services/gateway/src/data-access/migrations/index.ts';
import { insightsService } from '../services/insights/src/insights-service.ts';
import { ledgerService } from '../services/ledger/src/ledger-service.ts';

/** Every schema with its entities and migrations, in the order they are migrated. */
export const serviceSchemas = [
  { schema: 'gateway', entities: gatewayEntities, migrations: gatewayMigrations },
  ...[ledgerService, billingService, insightsService].map(({ schema, entities, migrations }) => ({
    schema,
    entities,
    migrations,
  })),
];
