import { randomBytes } from 'node:crypto';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, postgresAnswers, redisAnswers } from './servers.ts';

/**
 * Tests use DATABASE_URL / REDIS_URL when those servers answer, and start them with testcontainers
 * otherwise; when neither works the run fails with one line saying why (never a skip).
 */
export default async function globalSetup(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const [pgUp, redisUp] = await Promise.all([postgresAnswers(databaseUrl), redisAnswers(redisUrl)]);
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_URL = redisUrl;
  process.env.TEST_RUN_ID = randomBytes(4).toString('hex');
  if (pgUp && redisUp) return;
  try {
    if (!pgUp) {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:15').withDatabase('finance').start();
      process.env.DATABASE_URL = container.getConnectionUri();
      (globalThis as Record<string, unknown>).__pgContainer = container;
    }
    if (!redisUp) {
      const { RedisContainer } = await import('@testcontainers/redis');
      const container = await new RedisContainer('redis:7').start();
      process.env.REDIS_URL = container.getConnectionUrl();
      (globalThis as Record<string, unknown>).__redisContainer = container;
    }
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Error(
      `Tests need PostgreSQL and Redis: ${pgUp ? '' : `nothing answers at ${databaseUrl}; `}${redisUp ? '' : `nothing answers at ${redisUrl}; `}testcontainers could not start them either (${reason}).`,
    );
  }
}
