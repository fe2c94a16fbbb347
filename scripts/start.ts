import { type ChildProcess, spawn } from 'node:child_process';
import { ensureDatabase } from '@finance/shared/db/orm';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';
import { afterCrash, DEFAULT_RESTART_POLICY } from './restart-policy.ts';

/**
 * `npm start`: gateway, ledger, billing and insights with their workers as one process group on this
 * machine. The database is created first; each service applies its own migrations. A service that
 * exits on its own is restarted after a growing delay while the others keep serving; five crashes of
 * one service within a minute stop the whole group (exit code 1). SIGTERM/SIGINT stop every service.
 */
const SERVICES = ['ledger', 'billing', 'insights', 'gateway'] as const;
type Service = (typeof SERVICES)[number];

const config = loadGatewayConfig();
await ensureDatabase(config.DATABASE_URL);

const children = new Map<Service, ChildProcess>();
const crashes = new Map<Service, number[]>(SERVICES.map((name) => [name, []]));
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

// PORT is the gateway's; each service listens on the port of the URL the gateway calls it at.
const ports: Record<Service, string> = {
  ledger: portOf(config.LEDGER_URL),
  billing: portOf(config.BILLING_URL),
  insights: portOf(config.INSIGHTS_URL),
  gateway: String(config.PORT),
};

function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

function run(name: Service) {
  const env = { ...process.env, PORT: ports[name] };
  const child = spawn(process.execPath, [`services/${name}/src/main.ts`], { stdio: 'inherit', env });
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

for (const name of SERVICES) run(name);

process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGINT', () => stopAll('SIGTERM'));
