import type { CalendarDate } from '@finance/shared/calendar';
import type { EntityManager } from '@mikro-orm/postgresql';
import { zoneOfRow } from '../../data-access/context-time-zones.ts';
import { NOTIFICATION_EVENTS_CTE } from '../../data-access/notification-writes.ts';

/**
 * Notifies every reminder due this month and not yet notified for it: due on the day of its start_date
 * (clamped to the month end), between start_date and end_date, by the day of the goal's context (`at` read
 * in the context's time zone, so a reminder turns at local midnight; a calendar date acts as today for every
 * context). A late run still notifies the month's reminder (catch-up); a second run the same month finds
 * `last_notification` set and the dedupe key taken. One statement: notifications inserted, their
 * `goal.reminder` events recorded and `last_notification` stamped together.
 */
export async function notifyGoalReminders(em: EntityManager, at: Date | CalendarDate): Promise<{ notified: number }> {
  const given = typeof at === 'string' ? at : null;
  const instant = typeof at === 'string' ? new Date() : at;
  const rows: Array<{ notified: string }> = await em.getConnection().execute(
    `with days as (
       select r.id, r.goal_id, r.amount, g.user_id, g.profile_id, g.title, r.start_date, r.end_date, r.last_notification,
              coalesce(cast(? as date), (cast(? as timestamptz) at time zone ${zoneOfRow('g')})::date) as today
       from goal_reminders r
       join goals g on g.id = r.goal_id
     ),
     due as (
       select days.*,
              (date_trunc('month', days.today)::date
                + (least(extract(day from days.start_date)::int,
                         extract(day from date_trunc('month', days.today) + interval '1 month - 1 day')::int) - 1))::date as due_on
       from days
     ),
     ready as (
       select due.* from due
       where due.due_on <= due.today and due.due_on >= due.start_date
         and (due.end_date is null or due.due_on <= due.end_date)
         and (due.last_notification is null or (due.last_notification at time zone 'UTC')::date < due.due_on)
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
       update goal_reminders r set last_notification = ready.today::timestamp at time zone 'UTC', updated_at = now()
       from ready where r.id = ready.id
       returning 1
     )
     select (select count(*) from inserted)::text as notified, (select count(*) from stamped) as stamped`,
    [given, instant.toISOString()],
    'all',
  );
  return { notified: Number(rows[0]?.notified ?? 0) };
}
