import { type Processor, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { withActivity } from '../service/activity.ts';
import { jobDuration, jobFailures, queueDepth } from '../telemetry/metrics.ts';
import { bullTelemetry } from '../telemetry/queue-tracing.ts';
import { DEFAULT_JOB_OPTIONS, QUEUE_JOB_OPTIONS, type QueueName } from './catalogue.ts';

/** Producer side: one Queue object per name per process, all on one connection. */
export class QueueRegistry {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly connection: Redis;
  private depthTimer: NodeJS.Timeout | null = null;
  readonly prefix: string;

  constructor(connection: Redis, prefix = 'finance') {
    this.connection = connection;
    this.prefix = prefix;
  }

  get = (name: QueueName): Queue => {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: this.prefix,
        defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...QUEUE_JOB_OPTIONS[name] },
        telemetry: bullTelemetry(),
      });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  };

  all(): Queue[] {
    return [...this.queues.values()];
  }

  async refreshDepthMetrics(): Promise<void> {
    for (const queue of this.queues.values()) {
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed');
      for (const [state, count] of Object.entries(counts)) queueDepth.set({ queue: queue.name, state }, count);
    }
  }

  /** Refreshes the queue_depth gauge now and then every interval, for the queues this process registered. */
  startDepthMetrics(intervalMs = 15_000): void {
    const refresh = () => void this.refreshDepthMetrics().catch(() => undefined);
    refresh();
    this.depthTimer = setInterval(refresh, intervalMs);
    this.depthTimer.unref();
  }

  async close(): Promise<void> {
    if (this.depthTimer) clearInterval(this.depthTimer);
    this.depthTimer = null;
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
  }
}

export interface WorkerOptions {
  connection: Redis;
  logger: Logger;
  prefix?: string;
  concurrency?: number;
  /** Lock of an active job (ms); a dead worker's job is taken over once it lapses. BullMQ's default is 30 s. */
  lockDuration?: number;
  /** How often (ms) this worker looks for stalled jobs; BullMQ's default is 30 s. */
  stalledInterval?: number;
  /** False: the worker is created but takes no job (its queue belongs to another worker group). */
  autorun?: boolean;
}

/** Consumer side: metrics and failure logs for every job, so operators see each queue the same way. */
export function startWorker<T>(name: QueueName, processor: Processor<T>, options: WorkerOptions): Worker<T> {
  const worker = new Worker<T>(
    name,
    async (job, token, signal) => {
      const end = jobDuration.startTimer({ queue: name });
      try {
        // what the job starts (timers, promises) is its activity: a fault there logs the job's id
        const result = await withActivity({ queue: name, job_id: job.id }, () => processor(job, token, signal));
        end({ outcome: 'completed' });
        return result;
      } catch (err) {
        end({ outcome: 'failed' });
        jobFailures.inc({ queue: name });
        throw err;
      }
    },
    {
      connection: options.connection,
      prefix: options.prefix ?? 'finance',
      concurrency: options.concurrency ?? 4,
      autorun: options.autorun ?? true,
      ...(options.lockDuration ? { lockDuration: options.lockDuration } : {}),
      ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
      telemetry: bullTelemetry(),
    },
  );
  worker.on('failed', (job, err) =>
    options.logger.warn({ queue: name, jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'job failed'),
  );
  worker.on('error', (err) => options.logger.error({ queue: name, err }, 'worker error'));
  return worker;
}
