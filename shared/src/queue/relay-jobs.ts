import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { jobTraceMetadata } from '../telemetry/tracing.ts';
import {
  DEFAULT_JOB_OPTIONS,
  type DomainEvent,
  EVENT_BATCH_JOB,
  EVENT_ROUTES,
  type EventBatch,
  type EventType,
  MAX_CHANGED_PER_EVENT,
  type QueueName,
} from './catalogue.ts';

/** A job's data as its producer recorded it, with the trace of the request that queued it. */
type JobPayload = { traceparent?: string; [field: string]: unknown };

/** An outbox row waiting to be relayed, as the relay selects it: a job for one queue, or an event routed by type. */
export type PendingRow = { id: string; type: string; created_at: Date } & (
  | { queue: QueueName; payload: JobPayload }
  | { queue: null; payload: DomainEvent }
);
type JobRow = Extract<PendingRow, { queue: QueueName }>;
type EventRow = Extract<PendingRow, { queue: null }>;

/** A job's data is what its producer recorded; the trace travels in the job's telemetry metadata. */
function withoutTrace(payload: JobPayload): Record<string, unknown> {
  const { traceparent: _trace, ...data } = payload;
  return data;
}

type BulkJob = Parameters<Queue['addBulk']>[0][number];

/** A job row is one job, as its producer recorded it; the trace travels in the job's telemetry metadata. */
const jobOf = (row: JobRow): BulkJob => ({
  name: row.type,
  data: withoutTrace(row.payload),
  opts: { ...DEFAULT_JOB_OPTIONS, jobId: row.id, telemetry: jobTraceMetadata(row.payload.traceparent) },
});

/** Transactions an event carries (a rule's event up to `MAX_CHANGED_PER_EVENT`): what bounds a batch's size. */
const weightOf = (row: EventRow): number => {
  const data = row.payload.data;
  const transactions = data && typeof data === 'object' && 'transactions' in data ? data.transactions : null;
  return Array.isArray(transactions) ? Math.max(transactions.length, 1) : 1;
};

/**
 * Event rows bound for one queue, as jobs of consecutive events carrying at most `MAX_CHANGED_PER_EVENT`
 * transactions (a heavier event goes alone). The job id digests the ids, so the same rows relayed again are one job;
 * a batch holding other rows is another job, and the consumers' inbox skips the events they already applied.
 */
function batchJobsOf(rows: EventRow[]): BulkJob[] {
  const batches: EventRow[][] = [];
  let weight = 0;
  for (const row of rows) {
    const rowWeight = weightOf(row);
    if (batches.length === 0 || weight + rowWeight > MAX_CHANGED_PER_EVENT) {
      batches.push([]);
      weight = 0;
    }
    batches[batches.length - 1].push(row);
    weight += rowWeight;
  }
  return batches.map((batch) => {
    const data: EventBatch = { events: batch.map((row) => row.payload) };
    const digest = createHash('sha256')
      .update(batch.map((row) => row.id).join(','))
      .digest('base64url');
    return { name: EVENT_BATCH_JOB, data, opts: { ...DEFAULT_JOB_OPTIONS, jobId: `events-${digest}` } };
  });
}

/** The jobs a batch of outbox rows becomes, by queue: each job row alone, each queue's events together. */
export function jobsByQueue(rows: PendingRow[]): Map<QueueName, BulkJob[]> {
  const jobs = new Map<QueueName, BulkJob[]>();
  const events = new Map<QueueName, EventRow[]>();
  const push = <T>(map: Map<QueueName, T[]>, queue: QueueName, item: T) => {
    const items = map.get(queue);
    if (items) items.push(item);
    else map.set(queue, [item]);
  };
  for (const row of rows) {
    if (row.queue) push(jobs, row.queue, jobOf(row));
    else for (const queue of EVENT_ROUTES[row.type as EventType] ?? []) push(events, queue, row);
  }
  for (const [queue, queued] of events) for (const job of batchJobsOf(queued)) push(jobs, queue, job);
  return jobs;
}
