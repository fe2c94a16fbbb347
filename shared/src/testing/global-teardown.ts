import { dropRunDatabases } from './servers.ts';

/** Drops this run's test databases (every test process has exited), then stops any containers it started. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_RUN_ID && process.env.DATABASE_URL) {
    await dropRunDatabases(process.env.DATABASE_URL, process.env.TEST_RUN_ID);
  }
  for (const key of ['__pgContainer', '__redisContainer']) {
    const container = (globalThis as Record<string, unknown>)[key] as { stop(): Promise<unknown> } | undefined;
    await container?.stop();
  }
}
