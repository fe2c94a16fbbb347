import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextKey, contextOfRef, contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { ContextRef } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface WebhookRow {
  id: string;
  user_id: string;
  profile_id: string | null;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  status: 'ENABLED' | 'DISABLED';
  consecutive_failures: number;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  manual: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

const run = runSql;

export async function insertWebhook(
  em: EntityManager,
  row: Omit<WebhookRow, 'consecutive_failures' | 'disabled_at' | 'created_at' | 'updated_at' | 'status'>,
): Promise<WebhookRow> {
  const [inserted] = await run<WebhookRow>(
    em,
    `insert into webhooks (id, user_id, profile_id, url, events, description, secret, status, created_at, updated_at)
     values (?, ?, ?, ?, cast(? as text[]), ?, ?, 'ENABLED', now(), now()) returning *`,
    [row.id, row.user_id, row.profile_id, row.url, `{${row.events.join(',')}}`, row.description, row.secret],
  );
  return inserted;
}

export async function findWebhook(em: EntityManager, ctx: CallerContext, id: string): Promise<WebhookRow | null> {
  const scope = contextSql(ctx);
  const [row] = await run<WebhookRow>(em, `select * from webhooks where id = ? and ${scope.sql}`, [
    id,
    ...scope.params,
  ]);
  return row ?? null;
}

export async function listWebhookRows(
  em: EntityManager,
  ctx: CallerContext,
  afterId: string | null,
  limit: number,
): Promise<WebhookRow[]> {
  const scope = contextSql(ctx);
  return run<WebhookRow>(
    em,
    `select * from webhooks where ${scope.sql} ${afterId ? 'and id > ?' : ''} order by id limit ?`,
    [...scope.params, ...(afterId ? [afterId] : []), limit],
  );
}

export async function deleteWebhookRow(em: EntityManager, ctx: CallerContext, id: string): Promise<boolean> {
  const scope = contextSql(ctx);
  const deleted = await run(em, `delete from webhooks where id = ? and ${scope.sql} returning id`, [
    id,
    ...scope.params,
  ]);
  return deleted.length > 0;
}

/** Enabled webhooks of a context subscribed to the type. */
export async function subscribedWebhooks(em: EntityManager, context: ContextRef, type: string): Promise<WebhookRow[]> {
  const byContext = contextSql(contextOfRef(context));
  return run<WebhookRow>(
    em,
    `select * from webhooks where ${byContext.sql} and status = 'ENABLED' and ? = any(events) order by id`,
    [...byContext.params, type],
  );
}

/** Which of these contexts have an enabled webhook (by `contextKey`): one statement for a batch of events. */
export async function contextsWithWebhooks(em: EntityManager, contexts: ContextRef[]): Promise<Set<string>> {
  const keys = [...new Set(contexts.map((context) => contextKey(contextOfRef(context))))];
  if (keys.length === 0) return new Set();
  const rows = await run<{ context_id: string }>(
    em,
    `select distinct context_id from webhooks where context_id in (?) and status = 'ENABLED'`,
    [keys],
  );
  return new Set(rows.map((row) => row.context_id));
}

/** Inserts a delivery unless the webhook already has one for the event; returns the new row or null. */
export async function insertDelivery(
  em: EntityManager,
  row: { id: string; webhook_id: string; event_id: string; event_type: string; body: string },
): Promise<DeliveryRow | null> {
  const [inserted] = await run<DeliveryRow>(
    em,
    // stamped by the one clock: its retry window is measured against it (deliver-webhook.ts)
    `insert into webhook_deliveries (id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'PENDING', ?, ?, ?)
     on conflict (webhook_id, event_id) do nothing returning *`,
    [row.id, row.webhook_id, row.event_id, row.event_type, row.body, ...Array(3).fill(now())],
  );
  return inserted ?? null;
}

/** A delivery with its webhook (no context filter: the job carries only the delivery id). */
export async function findDeliveryForAttempt(
  em: EntityManager,
  deliveryId: string,
): Promise<{ delivery: DeliveryRow; webhook: WebhookRow } | null> {
  const [delivery] = await run<DeliveryRow>(em, 'select * from webhook_deliveries where id = ?', [deliveryId]);
  if (!delivery) return null;
  const [webhook] = await run<WebhookRow>(em, 'select * from webhooks where id = ?', [delivery.webhook_id]);
  return webhook ? { delivery, webhook } : null;
}

export async function findDelivery(
  em: EntityManager,
  webhookId: string,
  deliveryId: string,
  lock = false,
): Promise<DeliveryRow | null> {
  const [row] = await run<DeliveryRow>(
    em,
    `select * from webhook_deliveries where id = ? and webhook_id = ?${lock ? ' for update' : ''}`,
    [deliveryId, webhookId],
  );
  return row ?? null;
}

export async function listDeliveryRows(
  em: EntityManager,
  webhookId: string,
  beforeId: string | null,
  limit: number,
): Promise<DeliveryRow[]> {
  return run<DeliveryRow>(
    em,
    `select * from webhook_deliveries where webhook_id = ? ${beforeId ? 'and id < ?' : ''} order by id desc limit ?`,
    [webhookId, ...(beforeId ? [beforeId] : []), limit],
  );
}

export async function attemptsOf(em: EntityManager, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return run<AttemptRow>(
    em,
    'select * from webhook_delivery_attempts where delivery_id in (?) order by delivery_id, attempt',
    [deliveryIds],
  );
}

/** Counts the attempt on the delivery and logs it; returns the attempt's number. */
export async function recordAttempt(
  em: EntityManager,
  deliveryId: string,
  outcome: { ok: boolean; statusCode: number | null; error: string | null; durationMs: number; manual: boolean },
  nextAttemptAt: Date | null,
  finalStatus: DeliveryRow['status'],
): Promise<number> {
  const [updated] = await run<{ attempts: number }>(
    em,
    `update webhook_deliveries set attempts = attempts + 1, status = ?, last_status_code = ?, last_error = ?,
       next_attempt_at = ?, delivered_at = case when ? then now() else delivered_at end, updated_at = now()
     where id = ? returning attempts`,
    [finalStatus, outcome.statusCode, outcome.error, nextAttemptAt, outcome.ok, deliveryId],
  );
  await run(
    em,
    `insert into webhook_delivery_attempts (delivery_id, attempt, manual, status_code, error, duration_ms, created_at)
     values (?, ?, ?, ?, ?, ?, now())`,
    [deliveryId, updated.attempts, outcome.manual, outcome.statusCode, outcome.error, outcome.durationMs],
  );
  return updated.attempts;
}

export async function markDeliveryPending(em: EntityManager, deliveryId: string): Promise<DeliveryRow> {
  const [row] = await run<DeliveryRow>(
    em,
    `update webhook_deliveries set status = 'PENDING', next_attempt_at = now(), updated_at = now()
     where id = ? returning *`,
    [deliveryId],
  );
  return row;
}

export async function failDelivery(em: EntityManager, deliveryId: string, error: string): Promise<void> {
  await run(
    em,
    `update webhook_deliveries set status = 'FAILED', last_error = ?, next_attempt_at = null, updated_at = now()
     where id = ? and status = 'PENDING'`,
    [error, deliveryId],
  );
}

/** Success resets the webhook's failure streak; a failure extends it. Returns the webhook after the change. */
export async function recordWebhookOutcome(
  em: EntityManager,
  webhookId: string,
  ok: boolean,
): Promise<WebhookRow | undefined> {
  const [row] = await run<WebhookRow>(
    em,
    `update webhooks set consecutive_failures = case when ? then 0 else consecutive_failures + 1 end, updated_at = now()
     where id = ? returning *`,
    [ok, webhookId],
  );
  return row;
}

/** Disables an enabled webhook; true only for the call that did it (so one notification). */
export async function disableWebhook(em: EntityManager, webhookId: string): Promise<boolean> {
  const updated = await run(
    em,
    `update webhooks set status = 'DISABLED', disabled_at = now(), updated_at = now()
     where id = ? and status = 'ENABLED' returning id`,
    [webhookId],
  );
  return updated.length > 0;
}
