import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  testDatabaseName,
  withDatabase,
} from '@finance/shared/testing/servers';
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

/** Whether a process is the ledger's statement-file worker (the ledger's main.ts in a role of its own). */
const isFilesWorker = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('WORKER_QUEUES=ledger.statement-files');
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
    if (Number(group) === pgid && args.join(' ').includes(script) && !isFilesWorker(Number(pid))) return Number(pid);
  }
  return null;
};

/** Every process of the group running a service's main.ts. */
const servicePids = (pgid: number, service: string): number[] =>
  execFileSync('ps', ['-eo', 'pid=,pgid=,args='])
    .toString()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, group, ...args]) => Number(group) === pgid && args.join(' ').includes(`services/${service}/src/main.ts`),
    )
    .map(([pid]) => Number(pid));

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
  async function startGroup(
    stderr: string[] | string = [],
    env: Record<string, string | undefined> = {},
    stdout?: string[],
  ) {
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
      stdio: ['ignore', stdout ? 'pipe' : 'ignore', stderrFile ?? 'pipe'],
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
    if (stdout) npm.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk.toString()));
    if (stderrFile !== undefined) closeSync(stderrFile);
    const pgid = npm.pid as number;
    // the four start side by side (with the ledger's statement-file worker): each answers on its own port; six
    // processes compiling at once on a busy two-core machine take up to 30 s
    for (const port of [gateway, ledger, billing, insights]) await waitFor(() => answers(port), 60_000);
    await waitFor(() => answers(sandbox, '/.well-known/openid-configuration'), 30_000);
    return { npm, pgid, ports: { gateway, ledger, billing, insights } };
  }

  it('when PORT is not 8080 and npm receives SIGTERM, then the gateway answers there and every process of the group exits', async () => {
    const { pgid } = await startGroup();
    process.kill(pgid, 'SIGTERM'); // npm alone, as a process manager would
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  /** Whether a process has jemalloc mapped. */
  const onJemalloc = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libjemalloc');
  // where the system has it (CI installs it), every process of the group must run on it
  const systemJemalloc =
    execFileSync('sh', ['-c', "/sbin/ldconfig -p | grep -c 'libjemalloc\\.so\\.2 ' || true"]).toString().trim() !== '0';
  const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const PROCESSES = ['scripts/start.ts', 'ledger', 'billing', 'insights', 'gateway'];

  it("when the operator sets NODE_OPTIONS, then every process of the group gets the house V8 flag first and the operator's last (theirs win), the compile cache, and the system's jemalloc with the house settings", async () => {
    const { pgid } = await startGroup([], {
      NODE_OPTIONS: '--max-semi-space-size=16',
      LD_PRELOAD: undefined,
      MALLOC_CONF: undefined,
      NODE_COMPILE_CACHE: undefined,
    });
    const ledgers = servicePids(pgid, 'ledger');
    for (const pid of [...PROCESSES.map((script) => servicePid(pgid, script) as number), ...ledgers]) {
      const environ = environOf(pid);
      expect(environ).toContain('NODE_OPTIONS=--max-semi-space-size=4 --max-semi-space-size=16');
      expect(environ).toContain('MALLOC_CONF=background_thread:true,dirty_decay_ms:250,muzzy_decay_ms:0,narenas:1');
      expect(environ).toContain(`NODE_COMPILE_CACHE=${process.cwd()}/node_modules/.cache/node-compile-cache`);
      expect({ pid, jemalloc: onJemalloc(pid) }).toEqual({ pid, jemalloc: systemJemalloc });
    }
    // the ledger leaves its statement files to a worker process of their own
    const roles = ledgers.map((pid) =>
      environOf(pid)
        .filter((entry) => /^(ROLE|WORKER_QUEUES)=/.test(entry))
        .sort(),
    );
    expect(roles.sort()).toEqual([
      ['ROLE=worker', 'WORKER_QUEUES=ledger.statement-files'],
      ['WORKER_QUEUES=-ledger.statement-files'],
    ]);
    process.kill(pgid, 'SIGTERM');
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  it("when LD_PRELOAD is set empty, then every service runs on glibc's malloc", async () => {
    const { pgid } = await startGroup([], { LD_PRELOAD: '' });
    for (const service of ['ledger', 'billing', 'insights', 'gateway']) {
      expect(onJemalloc(servicePid(pgid, service) as number)).toBe(false);
    }
    process.kill(pgid, 'SIGTERM');
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 70_000);

  it('when the compile cache is empty, then the first start fills it before any service starts, and the next start finds the supervisor there too: no service, then no process, loads the TypeScript stripper', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'finance-compile-cache-'));
    const probe = new URL('../support/report-internal-deps.mjs', import.meta.url).href;
    /** What each process of a start reported as it exited: its script and whether it loaded the stripper. */
    const stripperBy = async (run: number) => {
      const file = `${cache}.${run}.log`;
      try {
        const { pgid } = await startGroup(file, { NODE_COMPILE_CACHE: cache, NODE_OPTIONS: `--import ${probe}` });
        process.kill(pgid, 'SIGTERM');
        await waitFor(async () => !groupAlive(pgid), 25_000);
        const reports = [...readFileSync(file, 'utf8').matchAll(/^\[internal-deps\] (.*)$/gm)].map(
          (line) => JSON.parse(line[1]) as { script: string; deps: string[] },
        );
        return Object.fromEntries(
          reports
            .filter((report) => /(scripts\/start|src\/main)\.ts$/.test(report.script))
            .map((report) => [
              report.script.replace(`${process.cwd()}/`, ''),
              report.deps.some((dep) => dep.includes('amaro')),
            ]),
        );
      } finally {
        rmSync(file, { force: true });
      }
    };
    try {
      const services = Object.fromEntries([
        ...['ledger', 'billing', 'insights', 'gateway'].map((s) => [`services/${s}/src/main.ts`, false]),
        ['sandbox/src/main.ts', false],
      ]);
      // the supervisor runs before the cache is filled; the services after
      expect(await stripperBy(1)).toEqual({ 'scripts/start.ts': true, ...services });
      expect(readdirSync(cache).length).toBeGreaterThan(0);
      expect(await stripperBy(2)).toEqual({ 'scripts/start.ts': false, ...services });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);

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

  it('when a handler leaves a rejection without a catch and an interval throws, then each process logs one JSON line with the request id, answers its request in flight 503, exits 1, is restarted, and answers the next request', async () => {
    const stderr: string[] = [];
    const stdout: string[] = [];
    // the preload (test only) turns a request id into a fault: `fault-<service>-reject-…`, `fault-<service>-interval-…`
    const trigger = new URL('../support/process-fault-trigger.mjs', import.meta.url).pathname;
    const { pgid, ports } = await startGroup(
      stderr,
      { LOG_LEVEL: 'fatal', NODE_OPTIONS: `--import=${trigger}` },
      stdout,
    );
    const fatalLines = () =>
      stdout
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line))
        // log records only (Banco Sandbox announces its address on stdout in development)
        .filter((record) => 'level' in record);

    // the ledger: a rejection nobody catches while its request is in flight
    const ledgerPid = servicePid(pgid, 'ledger');
    const inFlight = await fetch(`http://127.0.0.1:${ports.ledger}/healthz`, {
      headers: { 'x-request-id': 'fault-ledger-reject-1' },
    });
    expect(inFlight.status).toBe(503);
    expect(inFlight.headers.get('retry-after')).toBe('5');
    expect(await inFlight.json()).toEqual({
      message: 'Serviço temporariamente indisponível',
      statusCode: 503,
      error: 'Service Unavailable',
    });
    await waitFor(async () => stderr.join('').includes('ledger exited (1); restarting it'), 10_000);
    await waitFor(() => answers(ports.ledger), 15_000);
    expect(servicePid(pgid, 'ledger')).not.toBe(ledgerPid);
    expect(await answers(ports.ledger, '/healthz')).toBe(true);

    // the gateway: an interval a request started throws after the request was answered
    const gatewayPid = servicePid(pgid, 'gateway');
    const started = await fetch(`http://127.0.0.1:${ports.gateway}/healthz`, {
      headers: { 'x-request-id': 'fault-gateway-interval-1' },
    });
    expect(started.status).toBe(200);
    await waitFor(async () => stderr.join('').includes('gateway exited (1); restarting it'), 10_000);
    await waitFor(() => answers(ports.gateway, '/healthz'), 15_000);
    expect(servicePid(pgid, 'gateway')).not.toBe(gatewayPid);
    expect(await answers(ports.gateway, '/openapi.json')).toBe(true);

    // one line each, JSON, naming the request the fault happened for
    expect(fatalLines()).toEqual([
      expect.objectContaining({
        level: 60,
        service: 'ledger',
        origin: 'unhandled rejection',
        req_id: 'fault-ledger-reject-1',
        err: expect.objectContaining({ message: 'a rejection nobody catches (test)' }),
      }),
      expect.objectContaining({
        level: 60,
        service: 'gateway',
        origin: 'uncaught exception',
        req_id: 'fault-gateway-interval-1',
        err: expect.objectContaining({ message: 'an interval that throws (test)' }),
      }),
    ]);
    expect(groupAlive(pgid)).toBe(true);
    process.kill(pgid, 'SIGTERM');
    await waitFor(async () => !groupAlive(pgid), 25_000);
  }, 90_000);

  it('when the supervisor itself meets an unhandled rejection, then it writes one JSON line, stops every service and exits 1', async () => {
    const stderr: string[] = [];
    const trigger = new URL('../support/process-fault-trigger.mjs', import.meta.url).pathname;
    const { npm: group, pgid } = await startGroup(stderr, { NODE_OPTIONS: `--import=${trigger}` });
    const exited = new Promise<number | null>((resolve) => group.once('exit', (code) => resolve(code)));
    process.kill(servicePid(pgid, 'scripts/start.ts') as number, 'SIGUSR2');
    expect(await exited).toBe(1);
    await waitFor(async () => !groupAlive(pgid), 25_000);
    const lines = stderr
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        service: 'start',
        origin: 'unhandled rejection',
        err: expect.objectContaining({ message: 'a rejection in the supervisor (test)' }),
      }),
    ]);
  }, 70_000);
});
