import { readFileSync } from 'node:fs';
import { runSandboxClockFrom } from './clock.ts';
import { startSandbox } from './server.ts';

/**
 * `node sandbox/src/main.ts`: Banco Sandbox on `SANDBOX_PORT` (8090). Its clients (id, public JWKS, redirect
 * URIs) come from `SANDBOX_CLIENTS` (JSON) or the file `SANDBOX_CLIENTS_FILE`, as an institution knows the
 * receivers registered with it. `SANDBOX_NOW` runs its business clock from another instant (tests on edge days).
 */
runSandboxClockFrom(process.env.SANDBOX_NOW);
const clients = JSON.parse(
  process.env.SANDBOX_CLIENTS ??
    (process.env.SANDBOX_CLIENTS_FILE ? readFileSync(process.env.SANDBOX_CLIENTS_FILE, 'utf8') : '[]'),
);
const port = Number(process.env.SANDBOX_PORT ?? 8090);
const sandbox = await startSandbox({
  port,
  host: process.env.SANDBOX_HOST ?? '127.0.0.1',
  publicUrl: process.env.SANDBOX_PUBLIC_URL,
  clients,
  autoApprove: process.env.SANDBOX_AUTO_APPROVE !== 'false',
  today: process.env.SANDBOX_TODAY,
});
process.stdout.write(
  `${JSON.stringify({ service: 'sandbox', msg: 'Banco Sandbox listening', url: sandbox.url, clients: clients.length })}\n`,
);
const stop = () => void sandbox.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
