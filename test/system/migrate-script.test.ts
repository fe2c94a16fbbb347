import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { DEFAULT_DATABASE_URL, dropDatabase, testDatabaseName, withDatabase } from '@finance/shared/testing/servers';
import pg from 'pg';

const run = promisify(execFile);

describe('scripts/migrate.ts (the Helm hook Job and the docker-compose migrate service)', () => {
  const databaseUrl = withDatabase(
    process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    testDatabaseName(randomBytes(6).toString('hex')),
  );
  afterAll(() => (process.env.TEST_RUN_ID ? undefined : dropDatabase(databaseUrl)));

  it('when run in production with only the shared keys (as docker-compose does), then it creates the database and every schema', async () => {
    // docker-compose gives the migrate service no KEY_PEPPER: a gateway-only secret must not be required
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      INTERNAL_SECRET: 'x'.repeat(32),
    };
    const { stdout } = await run('node_modules/.bin/node', ['scripts/migrate.ts'], { env });
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(['gateway', 'ledger', 'billing', 'insights'].map((schema) => ({ schema, migrated: true })));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select nspname from pg_namespace where nspname in ('gateway', 'ledger', 'billing', 'insights') order by 1",
      );
      expect(rows.map((row) => row.nspname)).toEqual(['billing', 'gateway', 'insights', 'ledger']);
    } finally {
      await client.end();
    }
  }, 60_000);
});
