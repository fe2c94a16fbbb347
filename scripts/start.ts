import { type ChildProcess, spawn } from 'node:child_process';
import { ensureDatabase } from '@finance/shared/db/orm';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';

/**
 * `npm start`: gateway, ledger, billing and insights with their workers as one process group on this
 * machine. The database is created first; each service applies its own migrations.
 */
const SERVICES = ['ledger', 'billing', 'insights', 'gateway'] as const;

const config = loadGatewayConfig();
await ensureDatabase(config.DATABASE_URL);

const children = new Map<string, ChildProcess>();
let stopping = false;

function stopAll(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

// PORT is the gateway's; each service listens on the port of the URL the gateway calls it at.
const ports: Record<(typeof SERVICES)[number], string> = {
  ledger: portOf(config.LEDGER_URL),
  billing: portOf(config.BILLING_URL),
  insights: portOf(config.INSIGHTS_URL),
  gateway: String(config.PORT),
};

function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

for (const name of SERVICES) {
  const env = { ...process.env, PORT: ports[name] };
  const child = spawn(process.execPath, [`services/${name}/src/main.ts`], { stdio: 'inherit', env });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping the others`);
      process.exitCode = code || 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit();
  });
}

process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGINT', () => stopAll('SIGTERM'));
