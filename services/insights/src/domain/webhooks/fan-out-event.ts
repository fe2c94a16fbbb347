import { newId } from '@finance/shared/db/base-entity';
import { contextKey, contextOfRef } from '@finance/shared/db/context-scope';
import { type DomainEvent, QUEUES, type WebhookDeliveryJob } from '@finance/shared/queue/catalogue';
import { handleOnce } from '@finance/shared/queue/inbox';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { contextsWithWebhooks, insertDelivery, subscribedWebhooks } from '../../data-access/webhook-repository.ts';
import { deliveryBody, webhookEventOf } from './webhook-events.ts';

const CONSUMER = 'webhooks';

/**
 * One delivery per subscribed webhook of the event's context, and its first attempt queued through the
 * outbox, all in the inbox transaction: a redelivered event adds nothing (inbox and the unique
 * (webhook, event) pair), and a crash before the commit loses nothing.
 */
export async function fanOutEvent(em: EntityManager, event: DomainEvent): Promise<number> {
  const webhookEvent = webhookEventOf(event);
  // most contexts have no webhook: their events leave no inbox row behind
  if (!webhookEvent || (await subscribedWebhooks(em, event.context, webhookEvent.type)).length === 0) return 0;
  let created = 0;
  await handleOnce(em, event, CONSUMER, async (tx) => {
    const body = deliveryBody(event, webhookEvent);
    for (const webhook of await subscribedWebhooks(tx, event.context, webhookEvent.type)) {
      const delivery = await insertDelivery(tx, {
        id: newId(),
        webhook_id: webhook.id,
        event_id: event.event_id,
        event_type: webhookEvent.type,
        body,
      });
      if (!delivery) continue;
      const job: WebhookDeliveryJob = { delivery_id: delivery.id };
      recordJob(tx, QUEUES.webhookDeliveries, 'webhook.delivery', { ...job }, delivery.id);
      created += 1;
    }
  });
  return created;
}

/**
 * Which events of a batch may have a webhook to notify: those of the contexts with an enabled one, found by
 * one statement for the whole batch (most contexts have none, and their events cost nothing more).
 */
export async function withWebhooks(em: EntityManager, events: DomainEvent[]): Promise<(event: DomainEvent) => boolean> {
  const contexts = await contextsWithWebhooks(
    em,
    events.map((event) => event.context),
  );
  return (event) => contexts.has(contextKey(contextOfRef(event.context)));
}
