import type { EntityManager } from '@mikro-orm/postgresql';
import { NOTIFICATION_EVENTS_CTE } from '../../data-access/notification-writes.ts';

/**
 * Notifies every reminder due this month and not yet notified for it: due on the day of its start_date
 * (clamped to the month end), between start_date and end_date. A late run still notifies the month's
 * reminder (catch-up); a second run the same month finds `last_notification` set and the dedupe key taken.
 * One statement: notifications inserted, their `goal.reminder` events recorded and `last_notification` stamped together.
 */
export async function notifyGoalReminders(em: EntityManager, today: string): Promise<{ notified: number }> {
  const rows: Array<{ notified: string }> = await em.getConnection().execute(
    `with month as (
       select date_trunc('month', cast(? as date))::date as first_day,
              (date_trunc('month', cast(? as date)) + interval '1 month - 1 day')::date as last_day
     ),
     due as (
       select r.id, r.goal_id, r.amount, g.user_id, g.profile_id, g.title,
              (month.first_day + (least(extract(day from r.start_date)::int, extract(day from month.last_day)::int) - 1))::date as due_on
       from goal_reminders r
       join goals g on g.id = r.goal_id
       cross join month
     ),
     ready as (
       select due.* from due
       left join goal_reminders r on r.id = due.id
       where due.due_on <= cast(? as date) and due.due_on >= r.start_date
         and (r.end_date is null or due.due_on <= r.end_date)
         and (r.last_notification is null or (r.last_notification at time zone 'UTC')::date < due.due_on)
     ),
     inserted as (
       insert into notifications (id, user_id, profile_id, kind, title, message, data, dedupe_key, created_at, updated_at)
       select gen_random_uuid(), ready.user_id, ready.profile_id, 'GOAL_REMINDER',
              'Lembrete da meta "' || ready.title || '"',
              'Hoje é dia de guardar R$ ' || replace(to_char(ready.amount / 100.0, 'FM999999999999990.00'), '.', ',') ||
                ' para a meta "' || ready.title || '".',
              jsonb_build_object('goal_id', ready.goal_id, 'goal_reminder_id', ready.id, 'due_date', ready.due_on),
              'reminder:' || ready.id || ':' || to_char(ready.due_on, 'YYYY-MM'),
              now(), now()
       from ready
       on conflict (dedupe_key) do nothing
       returning id, user_id, profile_id, kind, title, message, data
     ),
     ${NOTIFICATION_EVENTS_CTE},
     stamped as (
       update goal_reminders r set last_notification = cast(? as date)::timestamp at time zone 'UTC', updated_at = now()
       from ready where r.id = ready.id
       returning 1
     )
     select (select count(*) from inserted)::text as notified, (select count(*) from stamped) as stamped`,
    [today, today, today, today],
    'all',
  );
  return { notified: Number(rows[0]?.notified ?? 0) };
}
