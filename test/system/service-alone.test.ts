import { randomBytes } from 'node:crypto';
import { startService } from '@finance/shared/service/start-service';
import { DEFAULT_DATABASE_URL, dropDatabase, testDatabaseName, withDatabase } from '@finance/shared/testing/servers';
import { loadLedgerConfig } from '../../services/ledger/src/config.ts';
import { ledgerService } from '../../services/ledger/src/ledger-service.ts';
import { deleteRedisKeys } from '../support/redis-keys.ts';

describe('a service started on its own', () => {
  const databaseUrl = withDatabase(
    process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    testDatabaseName(randomBytes(6).toString('hex')),
  );
  afterAll(() => (process.env.TEST_RUN_ID ? undefined : dropDatabase(databaseUrl)));

  it('when its database does not exist yet, then it creates it, migrates its schema and answers ready', async () => {
    const prefix = `alone${randomBytes(3).toString('hex')}`;
    const config = loadLedgerConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      PORT: '0',
      ROLE: 'api',
      QUEUE_PREFIX: prefix,
    });
    const ledger = await startService(ledgerService, config);
    try {
      const ready = await fetch(`${ledger.url}/readyz`);
      expect(ready.status).toBe(200);
      const [row] = await ledger.orm.em
        .fork()
        .getConnection()
        .execute("select count(*)::int as n from information_schema.tables where table_schema = 'ledger'");
      expect(row.n).toBeGreaterThan(10);
    } finally {
      await ledger.stop();
      await deleteRedisKeys(config.REDIS_URL, `${prefix}:*`);
    }
  });
});
