import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  testDatabaseName,
  withDatabase,
} from '@finance/shared/testing/servers';
import { deleteRedisKeys } from '../support/redis-keys.ts';
import { waitFor } from '../support/wait-for.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start (issue 2: one process group on PORT, stopped by SIGTERM)', () => {
  let npm: ChildProcess | undefined;
  const suffix = randomBytes(6).toString('hex');
  afterAll(async () => {
    // whatever the outcome, leave no process of the group behind, and none of its queue keys
    if (npm?.pid && groupAlive(npm.pid)) process.kill(-npm.pid, 'SIGKILL');
    await deleteRedisKeys(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, `t${suffix}:*`);
  });

  it('when PORT is not 8080 and npm receives SIGTERM, then the gateway answers there and every process of the group exits', async () => {
    const [gateway, ledger, billing, insights] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    npm = spawn('npm', ['start'], {
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, testDatabaseName(suffix)),
        QUEUE_PREFIX: `t${suffix}`,
        PORT: String(gateway),
        LEDGER_URL: `http://127.0.0.1:${ledger}`,
        BILLING_URL: `http://127.0.0.1:${billing}`,
        INSIGHTS_URL: `http://127.0.0.1:${insights}`,
      },
    });
    const pgid = npm.pid as number;
    // the four start side by side: each answers on its own port
    for (const port of [gateway, ledger, billing, insights]) {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok, 30_000);
    }
    process.kill(pgid, 'SIGTERM'); // npm alone, as a process manager would
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);
});
