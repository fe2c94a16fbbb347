import type { DomainEvent, TransactionChanged, WebhookEventType } from '@finance/shared/queue/catalogue';
import { WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';

/** The event a webhook receives for a domain event, or null when no webhook event stems from it. */
export function webhookEventOf(event: DomainEvent): { type: WebhookEventType; data: unknown } | null {
  if (event.type === 'transaction.changed') {
    const { change, transactions } = event.data as TransactionChanged;
    const type = `transaction.${change}`;
    return isWebhookEventType(type) ? { type, data: { transactions } } : null;
  }
  return isWebhookEventType(event.type) ? { type: event.type, data: event.data } : null;
}

export const isWebhookEventType = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/** The JSON body of a delivery: the same bytes for every attempt, so a signature covers exactly what is sent. */
export function deliveryBody(event: DomainEvent, webhookEvent: { type: string; data: unknown }): string {
  return JSON.stringify({
    id: event.event_id,
    type: webhookEvent.type,
    created_at: event.occurred_at,
    data: webhookEvent.data,
  });
}

/** Delay before the retry after the given failed attempt (1-based): base, 2×base, 4×base… */
export const retryDelayMs = (baseMs: number, failedAttempt: number): number =>
  baseMs * 2 ** Math.min(failedAttempt - 1, 30);
