import { now as clockNow } from '@finance/shared/clock';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import {
  type DeliveryRow,
  disableWebhook,
  failDelivery,
  findDeliveryForAttempt,
  recordAttempt,
  recordWebhookOutcome,
} from '../../data-access/webhook-repository.ts';
import type { SendOutcome, WebhookRequest } from '../../data-access/webhook-sender.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { retryDelayMs } from './webhook-events.ts';

export interface DeliverySettings {
  send: (request: WebhookRequest) => Promise<SendOutcome>;
  retryBaseMs: number;
  retryWindowMs: number;
  disableAfterFailures: number;
  now?: () => Date;
}

export interface AttemptResult {
  attempt: number | null;
  status: DeliveryRow['status'] | 'SKIPPED';
  /** Set when another attempt is due after this many milliseconds. */
  retryInMs: number | null;
}

/**
 * One attempt of a pending delivery: signed POST outside any transaction, then the outcome recorded in one.
 * A failure is retried with exponential backoff until the window after the event closes; a webhook whose
 * attempts keep failing (`disableAfterFailures` in a row) is disabled, with a notification to its owner.
 */
export async function deliverWebhook(
  em: EntityManager,
  deliveryId: string,
  settings: DeliverySettings,
  manual = false,
): Promise<AttemptResult> {
  const skipped: AttemptResult = { attempt: null, status: 'SKIPPED', retryInMs: null };
  const found = await findDeliveryForAttempt(em, deliveryId);
  if (!found) return skipped;
  const { delivery, webhook } = found;
  // a stale job (already delivered, or given up) sends nothing
  if (delivery.status !== 'PENDING') return skipped;
  if (webhook.status !== 'ENABLED') {
    await failDelivery(em, deliveryId, 'Webhook desativado');
    return { ...skipped, status: 'FAILED' };
  }
  const now = settings.now ?? clockNow;
  const timestamp = Math.floor(now().getTime() / 1000);
  const outcome = await settings.send({
    url: webhook.url,
    body: delivery.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'finance-webhooks/1',
      [SIGNATURE_HEADER]: signatureHeader(webhook.secret, timestamp, delivery.body),
      'Finance-Event-Id': delivery.event_id,
      'Finance-Event-Type': delivery.event_type,
      'Finance-Delivery-Id': delivery.id,
    },
  });
  return em.transactional(async (tx) => {
    const after = await recordWebhookOutcome(tx, webhook.id, outcome.ok);
    // deleted while the request was on the wire: its deliveries went with it
    if (!after) return skipped;
    const disabledNow =
      !outcome.ok &&
      after.consecutive_failures >= settings.disableAfterFailures &&
      (await disableWebhook(tx, webhook.id));
    const delay = retryDelayMs(settings.retryBaseMs, delivery.attempts + 1);
    const withinWindow = now().getTime() + delay - new Date(delivery.created_at).getTime() <= settings.retryWindowMs;
    const retry = !outcome.ok && !disabledNow && after.status === 'ENABLED' && withinWindow;
    const status: DeliveryRow['status'] = outcome.ok ? 'SUCCEEDED' : retry ? 'PENDING' : 'FAILED';
    const attempt = await recordAttempt(
      tx,
      deliveryId,
      { ...outcome, manual },
      retry ? new Date(now().getTime() + delay) : null,
      status,
    );
    if (disabledNow) {
      await insertNotifications(tx, [
        {
          userId: webhook.user_id,
          profileId: webhook.profile_id,
          kind: 'WEBHOOK_DISABLED',
          title: 'Webhook desativado',
          message: `O webhook ${webhook.url} foi desativado depois de ${after.consecutive_failures} entregas seguidas sem sucesso. Crie outro para voltar a receber eventos.`,
          data: { webhook_id: webhook.id, url: webhook.url, last_error: outcome.error },
          dedupeKey: `webhook-disabled:${webhook.id}`,
        },
      ]);
    }
    return { attempt, status, retryInMs: retry ? delay : null };
  });
}
