import { type Job, type Processor, UnrecoverableError } from 'bullmq';
import { inEventSpan } from '../telemetry/tracing.ts';
import type { DomainEvent, EventBatch } from './catalogue.ts';

/** What a consumer does with one relayed batch: `handle` each event, then `finish` what they left to do together. */
export interface EventBatchRun {
  handle(event: DomainEvent): Promise<void>;
  /** Runs after every event was handled, failed or not (e.g. one inbox statement for the events with no effect). */
  finish?(): Promise<void>;
}

/** Awaits every part, failed or not; then throws the first failure, a retryable one before an `UnrecoverableError`. */
async function settleParts(parts: Array<() => Promise<void> | undefined>): Promise<void> {
  const outcomes = await Promise.allSettled(parts.map(async (part) => part()));
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (failures.length) throw failures.find((err) => !(err instanceof UnrecoverableError)) ?? failures[0];
}

/**
 * Consumers of one service that read the same relayed batch, as one run: each handles every event and finishes
 * whether the other failed or not, so a retried job finds each consumer's inbox holding what it already applied.
 */
export function runsTogether(runs: EventBatchRun[]): EventBatchRun {
  return {
    handle: (event) => settleParts(runs.map((run) => () => run.handle(event))),
    finish: () => settleParts(runs.map((run) => () => run.finish?.())),
  };
}

/** A job's events: the relay's batch. */
function eventsOf(job: Job<EventBatch>): DomainEvent[] {
  const events = (job.data as Partial<EventBatch> | null)?.events;
  if (!Array.isArray(events)) throw new UnrecoverableError('malformed event batch');
  return events;
}

/** Calls `work` on every item, at most `limit` at a time; settles them all. */
async function settleAll<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<unknown[]> {
  const errors: unknown[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]).catch((err: unknown) => errors.push(err));
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return errors;
}

/**
 * Consumes relayed batches of events: each event through the run's `handle`, `concurrency` at a time, in a span
 * of the trace that recorded it; then `finish`. A malformed event (`UnrecoverableError`) does not hold back the
 * others: the job then fails without retries, its reason the rejections' messages. Any other error fails the
 * job for BullMQ to retry the batch, and the consumer's inbox skips the events it already applied.
 */
export function eventBatchProcessor(
  concurrency: number,
  start: (events: DomainEvent[]) => EventBatchRun | Promise<EventBatchRun>,
): Processor<EventBatch> {
  return async (job) => {
    const events = eventsOf(job);
    const run = await start(events);
    const errors = await settleAll(events, concurrency, (event) =>
      inEventSpan(event ?? { event_id: 'unknown', type: 'unknown' }, () => run.handle(event)),
    );
    await run.finish?.();
    const retryable = errors.find((err) => !(err instanceof UnrecoverableError));
    if (retryable) throw retryable;
    if (errors.length)
      throw new UnrecoverableError([...new Set(errors.map((err) => (err as Error).message))].join('; '));
  };
}
