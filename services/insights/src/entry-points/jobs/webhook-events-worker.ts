import { type DomainEvent, QUEUES, WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { fanOutEvent } from '../../domain/webhooks/fan-out-event.ts';

const ACCEPTED = new Set<string>(['transaction.changed', ...WEBHOOK_EVENT_TYPES]);

/** Turns every event a webhook may subscribe to into one delivery per subscribed webhook of its context. */
export function startWebhookEventsWorker(runtime: InsightsRuntime) {
  return runtime.startWorker<DomainEvent>(QUEUES.webhookEvents, async (job) => {
    const event = job.data;
    if (
      !event ||
      typeof event.event_id !== 'string' ||
      !ACCEPTED.has(event.type) ||
      typeof event.context?.user_id !== 'string' ||
      typeof event.occurred_at !== 'string'
    ) {
      throw new UnrecoverableError('malformed webhook event');
    }
    const created = await fanOutEvent(runtime.orm.em.fork(), event);
    if (created > 0) runtime.outbox?.kick();
    return { deliveries: created };
  });
}
