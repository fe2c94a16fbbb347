import { isUuid } from '@finance/shared/db/pagination';
import { type DomainEvent, QUEUES, WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';
import { type EventBatchRun, eventBatchProcessor } from '@finance/shared/queue/event-batches';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { fanOutEvent, withWebhooks } from '../../domain/webhooks/fan-out-event.ts';

/** What the fan-out takes: the webhook events, and `transaction.changed` (from `insights.transaction-changes`). */
const ACCEPTED = new Set<string>(['transaction.changed', ...WEBHOOK_EVENT_TYPES]);
/** Events of one batch fanned out at once (only those of contexts with a webhook reach the database). */
const FAN_OUT_CONCURRENCY = 8;

const isId = (value: unknown): value is string => typeof value === 'string' && isUuid(value);

const wellFormed = (event: DomainEvent | null): event is DomainEvent =>
  !!event &&
  isId(event.event_id) &&
  ACCEPTED.has(event.type) &&
  isId(event.context?.user_id) &&
  (event.context.profile_id == null || isId(event.context.profile_id)) &&
  typeof event.occurred_at === 'string';

/**
 * Turns every event a webhook may subscribe to into one delivery per subscribed webhook of its context; the
 * events of contexts without a webhook (found for the whole batch at once) go no further.
 */
export function webhookFanOutRun(runtime: InsightsRuntime): (events: DomainEvent[]) => Promise<EventBatchRun> {
  return async (events) => {
    const subscribed = await withWebhooks(runtime.orm.em.fork(), events.filter(wellFormed));
    let created = 0;
    return {
      async handle(event) {
        if (!wellFormed(event)) throw new UnrecoverableError('malformed webhook event');
        if (subscribed(event)) created += await fanOutEvent(runtime.orm.em.fork(), event);
      },
      async finish() {
        if (created > 0) runtime.outbox?.kick();
      },
    };
  };
}

/** Fans out the webhook events of billing, insights and the ledger. */
export function startWebhookEventsWorker(runtime: InsightsRuntime) {
  return runtime.startWorker(QUEUES.webhookEvents, eventBatchProcessor(FAN_OUT_CONCURRENCY, webhookFanOutRun(runtime)));
}
