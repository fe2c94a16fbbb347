import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { type Tenant, TestStack } from './stack.ts';

const LEDGER_MAIN = path.resolve(__dirname, '../../services/ledger/src/main.ts');

/**
 * A ledger process with only workers (the outbox relay too), on the stack's database and queue prefix: where the
 * stack's own ledger serves HTTP only (`serviceEnv: { ledger: { ROLE: 'api' } }`), as the deployment runs them.
 */
export function startLedgerWorker(stack: TestStack, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [LEDGER_MAIN], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      NODE_ENV: 'test',
      ROLE: 'worker',
      PORT: '0',
      DATABASE_URL: stack.databaseUrl,
      REDIS_URL: stack.env.REDIS_URL,
      QUEUE_PREFIX: stack.env.QUEUE_PREFIX,
      BILLING_URL: stack.service('billing').url,
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: 'ignore',
  });
}

/** Stops worker processes a test started (SIGKILL: a test's workers hold nothing worth a clean stop). */
export function stopLedgerWorkers(workers: ChildProcess[]): void {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
}

/**
 * For the describe it is called in: a stack whose ledger serves HTTP only, a tenant, and `startWorker` to start
 * ledger worker processes with `workerEnv` (each killed at the end), as the worker-crash suites need.
 */
export function stackWithWorkerProcesses(workerEnv: Record<string, string>) {
  const workers: ChildProcess[] = [];
  const fixture = {
    startWorker: (): ChildProcess => {
      const child = startLedgerWorker(fixture.stack, workerEnv);
      workers.push(child);
      return child;
    },
  } as { stack: TestStack; tenant: Tenant; startWorker: () => ChildProcess };
  beforeAll(async () => {
    fixture.stack = await TestStack.start({ serviceEnv: { ledger: { ROLE: 'api' } } });
    fixture.tenant = await fixture.stack.tenant();
  });
  afterAll(async () => {
    stopLedgerWorkers(workers);
    await fixture.stack?.stop();
  });
  return fixture;
}
