import type { DomainEvent, TransactionChanged } from '@finance/shared/queue/catalogue';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type EventBatchRun, eventBatchProcessor, runsTogether } from '@finance/shared/queue/event-batches';
import { handleOnce, recordHandled } from '@finance/shared/queue/inbox';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { forecastInputsChanged } from '../../domain/cash-flow/inputs-changed.ts';
import { spendingAlertsFor } from '../../domain/limits/spending-alerts.ts';
import { ledgerFor } from '../../ledger-client.ts';
import { CONSUMER } from './ledger-events-worker.ts';
import { webhookFanOutRun } from './webhook-events-worker.ts';

/** Events of one batch handled at once: those that touch a limit wait on PostgreSQL and the ledger. */
const CONCURRENCY = 16;

function transactionChange(event: DomainEvent): DomainEvent<TransactionChanged> {
  const changed = event as DomainEvent<TransactionChanged>;
  if (!changed.context?.user_id || !Array.isArray(changed.data?.transactions)) {
    throw new UnrecoverableError('malformed transaction.changed event');
  }
  return changed;
}

/**
 * The spending limits a transaction change touches, checked once per event (inbox); the events with nothing to
 * apply (most: no limit touched) are recorded together, one statement per batch.
 */
function spendingLimitsRun(runtime: InsightsRuntime): () => EventBatchRun {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  return () => {
    const quiet: DomainEvent[] = [];
    return {
      async handle(event) {
        const em = orm.em.fork();
        // spending is read before the inbox transaction so no HTTP call holds a database transaction open
        const alerts = await spendingAlertsFor(em, ledger, transactionChange(event));
        if (alerts.length === 0) quiet.push(event);
        else
          await handleOnce(em, event, CONSUMER, async (tx) => {
            await insertNotifications(tx, alerts);
          });
      },
      finish: () => recordHandled(orm.em.fork(), quiet, CONSUMER),
    };
  };
}

/**
 * The cash-flow forecasts a batch's changes touch: their contexts' watches made due, in one statement at the end of
 * the batch (idempotent: a redelivered batch marks them again, which costs one more evaluation).
 */
function cashFlowRun(runtime: InsightsRuntime): () => EventBatchRun {
  return () => {
    const contexts: DomainEvent['context'][] = [];
    return {
      async handle(event) {
        contexts.push(transactionChange(event).context);
      },
      finish: () => forecastInputsChanged(runtime.orm.em.fork(), contexts),
    };
  };
}

/**
 * `transaction.changed`, one job for both of insights' consumers: the spending limits it touches and the webhooks
 * of its context, each with its own inbox. A rule's 100,000 changed rows are written to Redis and parsed once, not
 * once per consumer (docs/performance.md).
 */
export function startTransactionChangesWorker(runtime: InsightsRuntime) {
  const limits = spendingLimitsRun(runtime);
  const webhooks = webhookFanOutRun(runtime);
  const cashFlow = cashFlowRun(runtime);
  return runtime.startWorker(
    QUEUES.transactionChanges,
    eventBatchProcessor(CONCURRENCY, async (events) => {
      const both = runsTogether([limits(), await webhooks(events), cashFlow()]);
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
    // batches arrive one per relay tick; a second in flight keeps the lag short while one waits on the ledger
    2,
  );
}
