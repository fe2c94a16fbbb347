import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { flushCompileCache, getCompileCacheDir } from 'node:module';
import { resolve } from 'node:path';
import { afterCrash, DEFAULT_RESTART_POLICY } from './restart-policy.ts';
import { DEFAULT_COMPILE_CACHE, serviceTuningEnv } from './service-tuning.ts';

/**
 * `npm start`: gateway, ledger, billing and insights with their workers as one process group on this
 * machine. The database is created first; each service applies its own migrations. A service that
 * exits on its own is restarted after a growing delay while the others keep serving; five crashes of
 * one service within a minute stop the whole group (exit code 1). SIGTERM/SIGINT stop every service.
 * The supervisor stays lean (no ORM, no joi): validating the configuration and creating the database
 * run in a one-shot process (scripts/start-prepare.ts) whose memory is gone before the services start.
 */
const SERVICES = ['ledger', 'billing', 'insights', 'gateway'] as const;
type Service = (typeof SERVICES)[number] | 'sandbox';

/** Whether this process loaded Node's TypeScript stripper (its own sources were not in the compile cache). */
const strippedTypeScript = () =>
  (process as { moduleLoadList?: string[] }).moduleLoadList?.includes('NativeModule internal/deps/amaro/dist/index');

// The first start after an install or a change strips the supervisor's own sources and would keep the stripper
// (≈18 MB) for its lifetime: it caches them and replaces itself with a copy that starts warm (same pid, so npm
// and signals see one process; once only, in case the cache cannot be written).
if (strippedTypeScript() && getCompileCacheDir() && process.execve && !process.env.FINANCE_START_WARM_COPY) {
  flushCompileCache();
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    FINANCE_START_WARM_COPY: '1',
  });
}
delete process.env.FINANCE_START_WARM_COPY;

/**
 * Node's compile cache (V8 code and the type-stripped sources), kept across starts and filled with every
 * service's modules by the prepare step: no service loads the type stripper (≈20 MB less per process), and
 * they start faster. `NODE_COMPILE_CACHE` moves it; `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
const COMPILE_CACHE = resolve(process.env.NODE_COMPILE_CACHE || DEFAULT_COMPILE_CACHE);
const childEnv = { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE };
const serviceEnv = { ...childEnv, ...serviceTuningEnv(process.env, existsSync) };

interface Prepared extends Record<(typeof SERVICES)[number], string> {
  /** Banco Sandbox's environment and the ledger's to reach it, when it runs (development). */
  sandbox: { sandbox: Record<string, string>; ledger: Record<string, string> } | null;
}
let ports: Prepared;
try {
  const prepared = execFileSync(process.execPath, ['scripts/start-prepare.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: childEnv,
  });
  ports = JSON.parse(prepared.toString());
} catch (err) {
  // the step printed why on stderr (an invalid configuration, an unreachable database)
  process.exit((err as { status?: number }).status || 1);
}

const names: Service[] = ports.sandbox ? [...SERVICES, 'sandbox'] : [...SERVICES];
const children = new Map<Service, ChildProcess>();
const crashes = new Map<Service, number[]>(names.map((name) => [name, []]));
const restarts = new Map<Service, NodeJS.Timeout>();
let stopping = false;

function stopAll(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  for (const timer of restarts.values()) clearTimeout(timer);
  restarts.clear();
  for (const child of children.values()) child.kill(signal);
  if (children.size === 0) process.exit();
}

function run(name: Service) {
  const env =
    name === 'sandbox'
      ? { ...childEnv, ...ports.sandbox?.sandbox }
      : { ...serviceEnv, PORT: ports[name], ...(name === 'ledger' ? ports.sandbox?.ledger : {}) };
  const script = name === 'sandbox' ? 'sandbox/src/main.ts' : `services/${name}/src/main.ts`;
  const child = spawn(process.execPath, [script], {
    stdio: 'inherit',
    env,
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (children.size === 0) process.exit();
      return;
    }
    const now = Date.now();
    const history = [...(crashes.get(name) ?? []), now].filter((at) => now - at < DEFAULT_RESTART_POLICY.windowMs);
    crashes.set(name, history);
    const decision = afterCrash(history, now);
    if (!decision.restart) {
      console.error(
        `${name} crashed ${decision.crashes} times within a minute (last exit: ${signal ?? code}); stopping every service`,
      );
      process.exitCode = 1;
      stopAll('SIGTERM');
      return;
    }
    console.error(`${name} exited (${signal ?? code}); restarting it in ${decision.delayMs} ms`);
    restarts.set(
      name,
      setTimeout(() => {
        restarts.delete(name);
        if (!stopping) run(name);
      }, decision.delayMs),
    );
  });
}

for (const name of names) run(name);

process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGINT', () => stopAll('SIGTERM'));
