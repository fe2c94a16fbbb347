import type { NotificationKind } from '@finance/shared/contracts/insights/notifications';
import { newId } from '@finance/shared/db/base-entity';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface NewNotification {
  userId: string;
  profileId: string | null;
  kind: NotificationKind;
  title: string;
  message: string;
  data: Record<string, unknown>;
  dedupeKey: string;
}

/**
 * A CTE for a statement whose CTE `inserted` returned new notifications (id, user_id, profile_id, kind, title,
 * message, data): writes a `spending_limit.warning|exceeded`, `goal.reminder` or `cash_flow.shortfall` event to the outbox for each,
 * in the same statement, so the notification and its event (webhooks) commit together or not at all.
 */
export const NOTIFICATION_EVENTS_CTE = `notification_events as (
  insert into outbox_events (id, type, payload, created_at)
  select e.event_id, e.type,
    jsonb_build_object(
      'event_id', e.event_id,
      'type', e.type,
      'occurred_at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'context', jsonb_build_object('user_id', e.user_id, 'profile_id', e.profile_id),
      'data', jsonb_build_object('notification_id', e.id, 'title', e.title, 'message', e.message, 'data', e.data)
        || case when e.kind = 'GOAL_REMINDER' then jsonb_build_object('goal_id', e.data -> 'goal_id')
                when e.kind = 'CASH_FLOW_SHORTFALL' then jsonb_build_object('account_id', e.data -> 'account_id')
                else jsonb_build_object('spending_limit_id', e.data -> 'spending_limit_id') end
    ),
    now()
  from (
    select gen_random_uuid() as event_id,
           case inserted.kind when 'SPENDING_LIMIT_WARNING' then 'spending_limit.warning'
                              when 'SPENDING_LIMIT_EXCEEDED' then 'spending_limit.exceeded'
                              when 'CASH_FLOW_SHORTFALL' then 'cash_flow.shortfall'
                              else 'goal.reminder' end as type,
           inserted.*
    from inserted
    where inserted.kind in ('SPENDING_LIMIT_WARNING', 'SPENDING_LIMIT_EXCEEDED', 'GOAL_REMINDER', 'CASH_FLOW_SHORTFALL')
  ) e
  returning 1
)`;

/**
 * One multi-row insert; a business key already notified is skipped, so redelivery and races add nothing.
 * Limit and reminder notifications also become outbox events (webhooks) in the same statement.
 */
export async function insertNotifications(em: EntityManager, rows: NewNotification[]): Promise<number> {
  if (rows.length === 0) return 0;
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, now(), now())').join(', ');
  const params = rows.flatMap((row) => [
    newId(),
    row.userId,
    row.profileId,
    row.kind,
    row.title,
    row.message,
    JSON.stringify(row.data),
    row.dedupeKey,
  ]);
  const inserted: unknown[] = await runSql(
    em,
    `with inserted as (
       insert into notifications (id, user_id, profile_id, kind, title, message, data, dedupe_key, created_at, updated_at)
       values ${values} on conflict (dedupe_key) do nothing
       returning id, user_id, profile_id, kind, title, message, data
     ),
     ${NOTIFICATION_EVENTS_CTE}
     select id from inserted`,
    params,
  );
  return inserted.length;
}
