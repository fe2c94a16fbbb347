import { randomBytes } from 'node:crypto';
import { type ServiceDefinition, startService } from '@finance/shared/service/start-service';
import { DEFAULT_DATABASE_URL, dropDatabase, testDatabaseName, withDatabase } from '@finance/shared/testing/servers';
import { billingService } from '../../services/billing/src/billing-service.ts';
import { type BillingConfig, loadBillingConfig } from '../../services/billing/src/config.ts';
import { mountBillRoutes } from '../../services/billing/src/entry-points/http/bill-routes.ts';
import { mountCardRoutes } from '../../services/billing/src/entry-points/http/card-routes.ts';
import { mountInternalLedgerRoutes } from '../../services/billing/src/entry-points/http/internal-ledger-routes.ts';
import { deleteRedisKeys } from '../support/redis-keys.ts';

describe('a service that does not serve every contract it owns', () => {
  const databaseUrl = withDatabase(
    process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    testDatabaseName(randomBytes(6).toString('hex')),
  );
  const prefix = `unserved${randomBytes(3).toString('hex')}`;
  const configFor = (role: 'api' | 'worker') =>
    loadBillingConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      PORT: '0',
      ROLE: role,
      QUEUE_PREFIX: prefix,
    });
  /** Billing with its internal routes for insights (the current bills, the bills ahead) left out. */
  const forgetful: ServiceDefinition<BillingConfig> = {
    ...billingService,
    mountRoutes: (app, runtime) => {
      mountCardRoutes(app, runtime);
      mountBillRoutes(app, runtime);
      mountInternalLedgerRoutes(app, runtime);
    },
  };
  afterAll(async () => {
    await deleteRedisKeys(configFor('api').REDIS_URL, `${prefix}:*`);
    if (!process.env.TEST_RUN_ID) await dropDatabase(databaseUrl);
  });

  // mounted contracts are recorded per app: the real billing's routes cannot hide the forgetful one's gap
  it('when the real billing has started first, then the forgetful one is still refused', async () => {
    const billing = await startService(billingService, configFor('api'));
    try {
      await expect(startService(forgetful, configFor('api'))).rejects.toThrow('(listCurrentBills)');
    } finally {
      await billing.stop();
    }
  });

  it('when it serves HTTP, then it refuses to start and names the route left without a handler', async () => {
    await expect(startService(forgetful, configFor('api'))).rejects.toThrow(
      'billing serves no handler for 2 of its route(s): GET /internal/v1/bills/current (listCurrentBills), POST /internal/v1/bills/ahead (listBillsAhead)',
    );
  });

  it('when it only runs workers, then it starts (it serves no route)', async () => {
    const worker = await startService(forgetful, configFor('worker'));
    await worker.stop();
  });

  it('when the real billing starts, then it serves every contract it owns and answers ready', async () => {
    const billing = await startService(billingService, configFor('api'));
    try {
      expect((await fetch(`${billing.url}/readyz`)).status).toBe(200);
    } finally {
      await billing.stop();
    }
  });
});
