import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabase } from '@finance/shared/db/ensure-database';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  testDatabaseName,
  withDatabase,
} from '@finance/shared/testing/servers';
import { freePort } from '../support/free-port.ts';
import { deleteRedisKeys } from '../support/redis-keys.ts';
import { waitFor } from '../support/wait-for.ts';

const run = promisify(execFile);
const REPORT_INTERNAL_DEPS = new URL('../support/report-internal-deps.mjs', import.meta.url).href;
const NODE = process.execPath;

describe('what a service loads as it starts (issue 13: memory)', () => {
  const suffix = randomBytes(6).toString('hex');
  const cache = mkdtempSync(join(tmpdir(), 'finance-compile-cache-'));
  // each service's stderr goes to a file, read once it has exited
  const traces = mkdtempSync(join(tmpdir(), 'finance-startup-traces-'));
  const databaseUrl = withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, testDatabaseName(suffix));
  const started: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    rmSync(cache, { recursive: true, force: true });
    rmSync(traces, { recursive: true, force: true });
    await deleteRedisKeys(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, `c${suffix}:*`);
  });

  it("when scripts/warm-compile-cache.ts has run, then no service loads the TypeScript stripper as it starts (nor the gateway as it builds its OpenAPI document), and none loads Node's bundled undici", async () => {
    const warmed = await run('sh', ['scripts/runtime.sh', NODE, 'scripts/warm-compile-cache.ts'], {
      env: { ...process.env, NODE_OPTIONS: '', NODE_COMPILE_CACHE: cache },
    });
    expect(warmed.stdout).toContain(`compile cache filled: ${cache}`);
    await ensureDatabase(databaseUrl);

    const [ledger, billing, insights, gateway] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const ports = { ledger, billing, insights, gateway };
    const serviceTraces = await Promise.all(
      Object.entries(ports).map(async ([service, port]) => {
        const traceFile = join(traces, `${service}.log`);
        const stderr = openSync(traceFile, 'w');
        const child = spawn('sh', ['scripts/runtime.sh', NODE, `services/${service}/src/main.ts`], {
          stdio: ['ignore', 'ignore', stderr],
          env: {
            ...process.env,
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            NODE_COMPILE_CACHE: cache,
            NODE_OPTIONS: `--import ${REPORT_INTERNAL_DEPS}`,
            DATABASE_URL: databaseUrl,
            QUEUE_PREFIX: `c${suffix}`,
            PORT: String(port),
            LEDGER_URL: `http://127.0.0.1:${ledger}`,
            BILLING_URL: `http://127.0.0.1:${billing}`,
            INSIGHTS_URL: `http://127.0.0.1:${insights}`,
          },
        });
        closeSync(stderr);
        started.push(child);
        await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok, 30_000);
        // the gateway loads its OpenAPI builder on the document's first read
        if (service === 'gateway') expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200);
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
        return { service, trace: readFileSync(traceFile, 'utf8') };
      }),
    );

    for (const { service, trace } of serviceTraces) {
      // reading the http module's lazy WebSocket getters (an ES import of 'node:http' does) loads Node's own
      // undici, ≈13 MB for nothing; the TypeScript stripper (amaro) only loads when a source was not cached
      const report = /\[internal-deps\] (.*)/.exec(trace)?.[1];
      const deps = report ? (JSON.parse(report) as { deps: string[] }).deps : null;
      expect({ service, deps: deps?.filter((dep) => /undici|amaro/.test(dep)) }).toEqual({ service, deps: [] });
    }
  }, 90_000);

  it('when the compile cache is off, then scripts/warm-compile-cache.ts exits 1 saying so', async () => {
    const { NODE_COMPILE_CACHE: _cache, ...env } = process.env;
    const failed = await run(NODE, ['scripts/warm-compile-cache.ts'], { env }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('NODE_COMPILE_CACHE is not set') });
  }, 30_000);
});
