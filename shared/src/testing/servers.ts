import { Redis } from 'ioredis';
import pg from 'pg';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/finance';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export async function postgresAnswers(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** A database URL on the same server with another database name. */
export function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

/** Test databases carry the run id (set by the global setup) so a run drops only its own at the end. */
export function testDatabaseName(suffix: string): string {
  const run = process.env.TEST_RUN_ID;
  return run ? `finance_test_${run}_${suffix}` : `finance_test_${suffix}`;
}

/** Drops every database of one test run, once no test process holds connections to them. */
export async function dropRunDatabases(url: string, runId: string): Promise<number> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where datname like 'finance\\_test\\_' || $1 || '\\_%'",
      [runId],
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
    return rows.length;
  } finally {
    await client.end();
  }
}
