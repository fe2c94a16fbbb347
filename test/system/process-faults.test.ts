import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { createRedis } from '@finance/shared/queue/redis';
import { DEFAULT_REDIS_URL } from '@finance/shared/testing/servers';
import { Queue } from 'bullmq';
import { deleteRedisKeys } from '../support/redis-keys.ts';

const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;

/**
 * A worker process whose job starts an interval that throws: the fault is logged once, as one JSON line naming the
 * job, and the process exits with code 1 (`exitOnProcessFaults`, installed by every service's `runMain`). The
 * request side, under `npm start`, is in npm-start.test.ts.
 */
describe('process faults in a job', () => {
  const prefix = `t${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    await deleteRedisKeys(REDIS_URL, `${prefix}:*`);
  });

  it('when an interval a job started throws, then the process logs one JSON line with the job id and exits 1', async () => {
    // the worker as a service runs it: fault handling first, then a worker on its queue
    const script = `
      import { createLogger } from '@finance/shared/logger';
      import { startWorker } from '@finance/shared/queue/queues';
      import { createRedis } from '@finance/shared/queue/redis';
      import { exitOnProcessFaults } from '@finance/shared/service/process-faults';
      const logger = createLogger('worker-under-test', 'info');
      exitOnProcessFaults('worker-under-test', logger);
      startWorker(${JSON.stringify(QUEUES.goalReminders)}, async () => {
        setInterval(() => { throw new Error('an interval a job started throws'); }, 50);
      }, { connection: createRedis(${JSON.stringify(REDIS_URL)}, 'worker'), logger, prefix: ${JSON.stringify(prefix)} });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: string[] = [];
    const stderr: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const exited = once(child, 'exit');

    const connection = createRedis(REDIS_URL, 'producer');
    const queue = new Queue(QUEUES.goalReminders, { connection, prefix });
    try {
      const job = await queue.add('goal-reminders', {});
      const [code] = (await exited) as [number | null];
      expect(code).toBe(1);
      const lines = stdout
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 60,
          service: 'worker-under-test',
          origin: 'uncaught exception',
          queue: QUEUES.goalReminders,
          job_id: job.id,
          err: expect.objectContaining({ message: 'an interval a job started throws' }),
        }),
      ]);
      // logged once, by the handler: no stack from Node's own report
      expect(stderr.join('')).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await queue.close();
      connection.disconnect();
    }
  }, 30_000);
});
