import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { afterCrash, DEFAULT_RESTART_POLICY } from './restart-policy.ts';

/**
 * `npm start`: gateway, ledger, billing and insights with their workers, the ledger's statement-file worker (its own
 * process, so reading a file never competes with the API's requests) and, in development, Banco Sandbox, as
 * one process group on this machine, each with the runtime settings of scripts/runtime.sh, through which `npm start` runs this. The
 * database is created first; each service applies its own migrations. A service that exits on its own is
 * restarted after a growing delay while the others keep serving; five crashes of one service within a minute
 * stop the whole group (exit code 1). SIGTERM/SIGINT stop every service. The supervisor stays lean (no ORM, no
 * joi): validating the configuration, creating the database and filling Node's compile cache run in a one-shot
 * process (scripts/start-prepare.ts) whose memory is gone before the services start.
 */
const SERVICES = ['ledger', 'billing', 'insights', 'gateway'] as const;
type Service = (typeof SERVICES)[number] | 'ledger-files' | 'sandbox';
/** The ledger's statement-file worker role; the ledger process leaves that queue to it. */
const ROLE_ENV: Partial<Record<Service, Record<string, string>>> = {
  ledger: { WORKER_QUEUES: `-${QUEUES.statementFiles}` },
  // its probes and /metrics on a port of its own the system picks
  // its heap within 15 % of its live data: 177–196 MB importing a 10 MiB file, not 198–221 (docs/performance.md)
  'ledger-files': {
    ROLE: 'worker',
    WORKER_QUEUES: QUEUES.statementFiles,
    PORT: '0',
    HEAP_GROWING_PERCENT: process.env.HEAP_GROWING_PERCENT ?? '15',
  },
};

interface Prepared extends Record<(typeof SERVICES)[number], string> {
  /** Banco Sandbox's environment and the ledger's to reach it, when it runs (development). */
  sandbox: { sandbox: Record<string, string>; ledger: Record<string, string> } | null;
}
let ports: Prepared;
try {
  const prepared = execFileSync(process.execPath, ['scripts/start-prepare.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  ports = JSON.parse(prepared.toString());
} catch (err) {
  // the step printed why on stderr (an invalid configuration, an unreachable database)
  process.exit((err as { status?: number }).status || 1);
}

const names: Service[] = [...SERVICES, 'ledger-files', ...(ports.sandbox ? (['sandbox'] as const) : [])];
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
  const service = name === 'ledger-files' ? 'ledger' : name;
  const env =
    service === 'sandbox'
      ? { ...process.env, ...ports.sandbox?.sandbox }
      : {
          ...process.env,
          PORT: ports[service],
          ...(service === 'ledger' ? ports.sandbox?.ledger : {}),
          ...ROLE_ENV[name],
        };
  const script = service === 'sandbox' ? 'sandbox/src/main.ts' : `services/${service}/src/main.ts`;
  const child = spawn(process.execPath, [script], { stdio: 'inherit', env });
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

/**
 * A fault of the supervisor itself (an uncaught exception or unhandled rejection): one JSON line on stderr, like
 * the services' (the supervisor loads no logger), then every service stops and the group exits with code 1.
 */
function onFault(origin: string) {
  return (err: unknown) => {
    if (stopping) return;
    const error =
      err instanceof Error ? { type: err.name, message: err.message, stack: err.stack } : { message: String(err) };
    const line = { level: 60, time: new Date().toISOString(), service: 'start', origin, err: error };
    process.stderr.write(`${JSON.stringify({ ...line, msg: `start: ${origin}; stopping every service` })}\n`);
    process.exitCode = 1;
    stopAll('SIGTERM');
  };
}

process.on('uncaughtException', onFault('uncaught exception'));
process.on('unhandledRejection', onFault('unhandled rejection'));

for (const name of names) run(name);

process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGINT', () => stopAll('SIGTERM'));
