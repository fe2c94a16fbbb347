import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  testDatabaseName,
  withDatabase,
} from '@finance/shared/testing/servers';
import { JEMALLOC_PATHS, SERVICE_MALLOC_CONF, SERVICE_MALLOC_TUNABLES } from '../../scripts/service-tuning.ts';
import { linesAbout, readFromCache, strippedSources } from '../support/compile-cache-trace.ts';
import { freePort } from '../support/free-port.ts';
import { deleteRedisKeys } from '../support/redis-keys.ts';
import { waitFor } from '../support/wait-for.ts';

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid of the process of the group running a service's main.ts (or another script), if one runs. */
const servicePid = (pgid: number, service: string): number | null => {
  const script = service.endsWith('.ts') ? service : `services/${service}/src/main.ts`;
  const lines = execFileSync('ps', ['-eo', 'pid=,pgid=,args=']).toString().split('\n');
  for (const line of lines) {
    const [pid, group, ...args] = line.trim().split(/\s+/);
    if (Number(group) === pgid && args.join(' ').includes(script)) return Number(pid);
  }
  return null;
};

const answers = async (port: number, path = '/readyz') =>
  (await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined))?.ok === true;

describe('npm start (issue 2: one process group on PORT, stopped by SIGTERM; issue 10: supervision)', () => {
  let npm: ChildProcess | undefined;
  const suffix = randomBytes(6).toString('hex');
  afterEach(() => {
    // whatever the outcome, leave no process of the group behind
    if (npm?.pid && groupAlive(npm.pid)) process.kill(-npm.pid, 'SIGKILL');
  });
  afterAll(async () => {
    // nor any of its queue keys
    await deleteRedisKeys(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, `t${suffix}:*`);
  });

  /**
   * `stderr`: the group's lines gathered from a pipe, or the path of a file they go to. A file for a trace of
   * megabytes: once a process of the group has used `process.stderr`, libuv has made the pipe's shared end
   * non-blocking, and Node's native debug lines (written with `fwrite`) are dropped when the pipe is full.
   */
  async function startGroup(stderr: string[] | string = [], env: Record<string, string | undefined> = {}) {
    const [gateway, ledger, billing, insights, sandbox] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const stderrFile = typeof stderr === 'string' ? openSync(stderr, 'w') : undefined;
    npm = spawn('npm', ['start'], {
      detached: true,
      stdio: ['ignore', 'ignore', stderrFile ?? 'pipe'],
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
        // Banco Sandbox runs with the group outside production: on a port of its own
        SANDBOX_PORT: String(sandbox),
        ...env,
      },
    });
    if (Array.isArray(stderr)) npm.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    if (stderrFile !== undefined) closeSync(stderrFile);
    const pgid = npm.pid as number;
    // the four start side by side: each answers on its own port
    for (const port of [gateway, ledger, billing, insights]) await waitFor(() => answers(port), 30_000);
    await waitFor(() => answers(sandbox, '/.well-known/openid-configuration'), 30_000);
    return { npm, pgid, ports: { gateway, ledger, billing, insights } };
  }

  it('when PORT is not 8080 and npm receives SIGTERM, then the gateway answers there and every process of the group exits', async () => {
    const { pgid } = await startGroup();
    process.kill(pgid, 'SIGTERM'); // npm alone, as a process manager would
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  /** The jemalloc library a process has mapped, if any. */
  const jemallocOf = (pid: number) =>
    JEMALLOC_PATHS.find((path) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes(path));
  // where the machine has it (CI installs it), the service must run on it
  const machineJemalloc = JEMALLOC_PATHS.find((path) => existsSync(path));

  it("when the operator sets NODE_OPTIONS, then each service gets the house V8 flags first and the operator's last (theirs win), the house malloc thresholds, and the machine's jemalloc with the house settings", async () => {
    const { pgid } = await startGroup([], {
      NODE_OPTIONS: '--max-semi-space-size=16',
      GLIBC_TUNABLES: undefined,
      LD_PRELOAD: undefined,
      MALLOC_CONF: undefined,
      SERVICE_MALLOC: undefined,
    });
    for (const service of ['ledger', 'billing', 'insights', 'gateway']) {
      const pid = servicePid(pgid, service) as number;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain('NODE_OPTIONS=--max-semi-space-size=4 --max-semi-space-size=16');
      // glibc up to 2.38 cuts the variable at its first `:` in the process's own copy once it has read it all
      const tunables = environ.find((entry) => entry.startsWith('GLIBC_TUNABLES='));
      expect(`GLIBC_TUNABLES=${SERVICE_MALLOC_TUNABLES}`.startsWith(tunables ?? '-')).toBe(true);
      expect(tunables).toContain('glibc.malloc.mmap_threshold=131072');
      expect(environ).toContain(`MALLOC_CONF=${SERVICE_MALLOC_CONF}`);
      expect(jemallocOf(pid)).toBe(machineJemalloc);
      expect(environ.some((entry) => entry.startsWith('NODE_COMPILE_CACHE=/'))).toBe(true);
    }
    // the supervisor itself keeps glibc's malloc: only the services are preloaded
    expect(jemallocOf(servicePid(pgid, 'scripts/start.ts') as number)).toBeUndefined();
    process.kill(pgid, 'SIGTERM');
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  it("when SERVICE_MALLOC is system, then every service runs on glibc's malloc", async () => {
    const { pgid } = await startGroup([], { SERVICE_MALLOC: 'system', LD_PRELOAD: undefined });
    for (const service of ['ledger', 'billing', 'insights', 'gateway']) {
      expect(jemallocOf(servicePid(pgid, service) as number)).toBeUndefined();
    }
    process.kill(pgid, 'SIGTERM');
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  it('when the compile cache is empty, then the first start strips each source once: the supervisor restarts warm and every service reads its sources from the cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'finance-compile-cache-'));
    const traceFile = `${cache}.stderr.log`;
    try {
      const { pgid } = await startGroup(traceFile, { NODE_COMPILE_CACHE: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
      // the supervisor running is the copy it replaced itself with; the services do not inherit the mark
      const environ = (script: string) => readFileSync(`/proc/${servicePid(pgid, script)}/environ`, 'utf8').split('\0');
      expect(environ('scripts/start.ts')).toContain('FINANCE_START_WARM_COPY=1');
      for (const service of ['ledger', 'billing', 'insights', 'gateway'])
        expect(environ(service).some((entry) => entry.startsWith('FINANCE_START_WARM_COPY'))).toBe(false);
      process.kill(pgid, 'SIGTERM');
      await waitFor(async () => !groupAlive(pgid), 25_000);
      const trace = readFileSync(traceFile, 'utf8');
      // the cold supervisor stripped its own sources; its warm copy, the prepare step and the services did not
      // strip any source a second time
      const stripped = strippedSources(trace);
      expect(stripped).toContain(new URL('../../scripts/start.ts', import.meta.url).href);
      expect(stripped.filter((source, at) => stripped.indexOf(source) !== at)).toEqual([]);
      expect(readFromCache(trace, 'scripts/start.ts')).toBe(true);
      // a miss shows the trace's lines about that source
      for (const service of ['ledger', 'billing', 'insights', 'gateway']) {
        const main = `services/${service}/src/main.ts`;
        expect(readFromCache(trace, main) || linesAbout(trace, main)).toBe(true);
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
      rmSync(traceFile, { force: true });
    }
  }, 70_000);

  it('when the configuration is invalid, then npm start exits 1 at once, naming the bad setting', async () => {
    const stderr: string[] = [];
    const group = spawn('npm', ['start'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test', PORT: 'not-a-port' },
    });
    group.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const code = await new Promise<number | null>((resolve) => group.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.join('')).toContain('PORT');
  }, 30_000);

  it('when billing is killed with SIGKILL, then the others keep answering and billing answers again within 5 s', async () => {
    const { pgid, ports } = await startGroup();
    const killed = servicePid(pgid, 'billing') as number;
    expect(killed).toEqual(expect.any(Number));
    process.kill(killed, 'SIGKILL');
    const since = Date.now();
    await waitFor(async () => !(await answers(ports.billing)), 2_000);
    expect(await answers(ports.gateway, '/healthz')).toBe(true);
    expect(await answers(ports.ledger)).toBe(true);
    expect(await answers(ports.insights)).toBe(true);
    await waitFor(() => answers(ports.billing), 5_000, 50);
    expect(Date.now() - since).toBeLessThan(5_000);
    expect(servicePid(pgid, 'billing')).not.toBe(killed);
    expect(groupAlive(pgid)).toBe(true);
    process.kill(pgid, 'SIGTERM');
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  it('when billing crashes five times within a minute, then the group stops with a message and exit code 1', async () => {
    const stderr: string[] = [];
    const { npm: group, pgid } = await startGroup(stderr);
    const exited = new Promise<number | null>((resolve) => group.once('exit', (code) => resolve(code)));
    let previous: number | null = null;
    for (let crash = 0; crash < 5; crash++) {
      let pid: number | null = null;
      await waitFor(
        async () => {
          pid = servicePid(pgid, 'billing');
          return pid !== null && pid !== previous;
        },
        15_000,
        25,
      );
      previous = pid;
      process.kill(pid as unknown as number, 'SIGKILL');
    }
    expect(await exited).toBe(1);
    await waitFor(async () => !groupAlive(pgid), 25_000);
    expect(stderr.join('')).toContain('billing crashed 5 times within a minute');
  }, 90_000);
});
