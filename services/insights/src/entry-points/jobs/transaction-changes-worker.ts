import { QUEUES } from '@finance/shared/queue/catalogue';
import { eventBatchProcessor, runsTogether } from '@finance/shared/queue/event-batches';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { LEDGER_EVENTS_CONCURRENCY, ledgerEventsRun } from './ledger-events-worker.ts';
import { webhookFanOutRun } from './webhook-events-worker.ts';

/**
 * `transaction.changed`, one job for both of insights' consumers: the spending limits it touches and the webhooks
 * of its context, each with its own inbox. A rule's 100,000 changed rows are written to Redis and parsed once, not
 * once per consumer (docs/performance.md, twenty-eighth round).
 */
export function startTransactionChangesWorker(runtime: InsightsRuntime) {
  const limits = ledgerEventsRun(runtime);
  const webhooks = webhookFanOutRun(runtime);
  return runtime.startWorker(
    QUEUES.transactionChanges,
    eventBatchProcessor(LEDGER_EVENTS_CONCURRENCY, async (events) => {
      const both = runsTogether([limits(), await webhooks(events)]);
      return {
        handle: async (event) => {
          if (event?.type !== 'transaction.changed') {
            throw new UnrecoverableError(`no handler for event ${String(event?.type)}`);
          }
          await both.handle(event);
        },
        finish: both.finish,
      };
    }),
    // as the ledger events: a second batch in flight while one waits on the ledger
    2,
  );
}
