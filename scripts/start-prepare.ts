import { ensureDatabase } from '@finance/shared/db/ensure-database';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';
import { warmCompileCache } from './compile-cache.ts';
import { runsSandbox, sandboxEnvironments } from './sandbox-bank.ts';

/**
 * The one-shot step `npm start` runs before its services: validates the configuration (an invalid one stops
 * the start here, with joi's message), creates the database when missing, fills Node's compile cache with the
 * services' modules (so even the first start after an install or a change runs no service with the TypeScript
 * stripper) and prints each service's port as JSON on stdout. A process of its own, so the supervisor that
 * lives on keeps none of what it loads in memory.
 */
const config = loadGatewayConfig();
await ensureDatabase(config.DATABASE_URL);
await warmCompileCache();

function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

// PORT is the gateway's; each service listens on the port of the URL the gateway calls it at; Banco Sandbox
// (development) comes with the environments that connect the ledger to it
process.stdout.write(
  `${JSON.stringify({
    ledger: portOf(config.LEDGER_URL),
    billing: portOf(config.BILLING_URL),
    insights: portOf(config.INSIGHTS_URL),
    gateway: String(config.PORT),
    sandbox: runsSandbox(process.env) ? await sandboxEnvironments(process.env, String(config.PORT)) : null,
  })}\n`,
);
