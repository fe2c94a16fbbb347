import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../support/free-port.ts';
import { DisposableRedis } from '../support/redis-server.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const ROOT = join(__dirname, '..', '..');
const GRACE_MS = 30_000; // the chart's terminationGracePeriodSeconds and compose's stop_grace_period
const basic = (tenant: Tenant) => `Basic ${Buffer.from(`${tenant.key.token}:${tenant.key.secret}`).toString('base64')}`;

describe('gateway rollouts: readiness without Redis, SIGTERM drains every request', () => {
  let redis: DisposableRedis;
  let stack: TestStack;
  let tenant: Tenant;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    redis = new DisposableRedis(await freePort());
    await redis.start();
    stack = await TestStack.start({ env: { REDIS_URL: redis.url } });
    tenant = await stack.tenant();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await redis.start().catch(() => undefined);
    await stack?.stop();
    await redis.stop();
  });

  it('when Redis is down, then the gateway stays ready and authenticated reads still answer', async () => {
    await redis.stop();
    try {
      const ready = await fetch(`${stack.url}/readyz`);
      expect(ready.status).toBe(200);
      const listed = await tenant.api.get('/v1/accounts');
      expect(listed.status).toBe(200);
    } finally {
      await redis.start();
    }
  });

  it('when the gateway process gets SIGTERM during a load of 200 requests, then every request is answered within the grace period', async () => {
    const port = await freePort();
    const ledger = stack.service('ledger');
    child = spawn(process.execPath, ['services/gateway/src/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        ...stack.env,
        PORT: String(port),
        MIGRATE_ON_START: 'false',
        SHUTDOWN_DELAY_MS: '3000',
        LEDGER_URL: ledger.url,
        BILLING_URL: stack.service('billing').url,
        INSIGHTS_URL: stack.service('insights').url,
      },
    });
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok, 30_000);

    const call = () =>
      fetch(`${base}/v1/accounts`, { headers: { authorization: basic(tenant) } }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status as number | string;
        },
        (err: Error) => `${err.message} ${(err.cause as Error | undefined)?.message ?? ''}`,
      );
    // 100 requests in flight; SIGTERM once 10 have answered; 100 more right after the signal, which a
    // load balancer still routes while the endpoint removal propagates (the drain delay)
    let answered = 0;
    const first = Array.from({ length: 100 }, () =>
      call().then((outcome) => {
        answered += 1;
        return outcome;
      }),
    );
    await waitFor(async () => answered >= 10, 20_000, 5);
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const second = Array.from({ length: 100 }, call);
    const results = await Promise.all([...first, ...second]);
    const readyWhileDraining = await fetch(`${base}/readyz`).then(
      (response) => response.status,
      () => 'closed',
    );
    const code = await exited;

    expect(results).toHaveLength(200);
    expect(results.filter((outcome) => outcome !== 200)).toEqual([]);
    // the drain told load balancers to go away, and the process left cleanly within the grace period
    expect([503, 'closed']).toContain(readyWhileDraining);
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(GRACE_MS);
  }, 60_000);
});
