import { iso } from '@finance/shared/db/context-scope';
import type { AttemptRow, DeliveryRow, WebhookRow } from '../../data-access/webhook-repository.ts';

export const webhookView = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  status: row.status,
  disabled_at: iso(row.disabled_at),
  profile_id: row.profile_id,
  user_id: row.user_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const deliveryView = (row: DeliveryRow, attempts: AttemptRow[]) => ({
  id: row.id,
  webhook_id: row.webhook_id,
  event_id: row.event_id,
  event_type: row.event_type,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  next_attempt_at: row.status === 'PENDING' ? iso(row.next_attempt_at) : null,
  delivered_at: iso(row.delivered_at),
  payload: JSON.parse(row.body) as unknown,
  attempt_log: attempts
    .filter((attempt) => attempt.delivery_id === row.id)
    .map((attempt) => ({
      attempt: attempt.attempt,
      manual: attempt.manual,
      status_code: attempt.status_code,
      error: attempt.error,
      duration_ms: attempt.duration_ms,
      createdAt: iso(attempt.created_at),
    })),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
