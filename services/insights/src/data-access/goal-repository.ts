import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql, contextWhere } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { zoneOfRow } from './context-time-zones.ts';
import {
  type Goal,
  type GoalReminder,
  GoalReminderSchema,
  GoalSchema,
  type GoalValue,
  GoalValueSchema,
} from './entities/goal.ts';
import { NOTIFICATION_EVENTS_CTE } from './notification-writes.ts';

export const findGoal = (em: EntityManager, ctx: CallerContext, id: string): Promise<Goal | null> =>
  em.findOne(GoalSchema, { id, ...contextWhere(ctx) });

export const listGoalsPage = (em: EntityManager, ctx: CallerContext, limit: number, afterId: string | null) =>
  em.find(
    GoalSchema,
    { ...contextWhere(ctx), ...(afterId ? { id: { $gt: afterId } } : {}) },
    { orderBy: { id: 'asc' }, limit: limit + 1 },
  );

/** Values and reminders of many goals in two queries. */
export async function goalParts(em: EntityManager, goalIds: string[]) {
  if (goalIds.length === 0)
    return { values: new Map<string, GoalValue[]>(), reminders: new Map<string, GoalReminder>() };
  const [values, reminders] = await Promise.all([
    em.find(GoalValueSchema, { goalId: { $in: goalIds } }, { orderBy: [{ date: 'asc' }, { id: 'asc' }] }),
    em.find(GoalReminderSchema, { goalId: { $in: goalIds } }),
  ]);
  const byGoal = new Map<string, GoalValue[]>();
  for (const value of values) {
    const list = byGoal.get(value.goalId);
    if (list) list.push(value);
    else byGoal.set(value.goalId, [value]);
  }
  return { values: byGoal, reminders: new Map(reminders.map((reminder) => [reminder.goalId, reminder])) };
}

/**
 * Deposits − withdrawals under the goal's row lock, so concurrent withdrawals cannot overdraw; the sum is a
 * second statement because a statement that waited for the lock still reads with its earlier snapshot.
 */
export async function lockedSavedAmount(em: EntityManager, goalId: string): Promise<number> {
  await runSql(em, 'select id from goals where id = ? for update', [goalId]);
  const rows = await runSql<{ saved: string }>(
    em,
    'select coalesce(sum(case when is_expense then -value else value end), 0)::text as saved from goal_values where goal_id = ?',
    [goalId],
  );
  return Number(rows[0]?.saved ?? 0);
}

/** A changed reminder's next due day is worked out again by the next run. */
export async function rescheduleReminder(em: EntityManager, reminderId: string): Promise<void> {
  await runSql(em, 'update goal_reminders set next_due_on = null where id = ?', [reminderId]);
}

/**
 * The goal reminders' run in one statement: every reminder due this month by its context's day (`given`, a
 * calendar date for every context, else `instant` read in the context's time zone) and not yet notified gets
 * its notification, its `goal.reminder` event and `last_notification` stamped together; how many were notified.
 * It reads only the reminders whose next due day has come in some zone (each keeps that day, indexed; null for a
 * new or changed one) and sets each one's next due day.
 */
export async function notifyRemindersDue(em: EntityManager, given: string | null, instant: string): Promise<number> {
  const rows = await runSql<{ notified: string }>(
    em,
    `with days as (
       select r.id, r.goal_id, r.amount, g.user_id, g.profile_id, g.title, r.start_date, r.end_date, r.last_notification,
              coalesce(cast(? as date), (cast(? as timestamptz) at time zone ${zoneOfRow('g')})::date) as today
       from goal_reminders r
       join goals g on g.id = r.goal_id
       -- no zone's day is more than a day ahead of UTC's
       where coalesce(r.next_due_on, '-infinity'::date)
             <= coalesce(cast(? as date), (cast(? as timestamptz) at time zone 'UTC')::date + 1)
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
     following as (
       select due.id, greatest(due.start_date,
                case when due.due_on > due.today then due.due_on
                     else (date_trunc('month', due.today) + interval '1 month')::date
                          + (least(extract(day from due.start_date)::int,
                                   extract(day from date_trunc('month', due.today) + interval '2 months - 1 day')::int) - 1)
                end) as next_due_on,
              due.id in (select id from ready) as notified, due.today, due.end_date
       from due
     ),
     stamped as (
       update goal_reminders r set
         last_notification = case when f.notified then f.today::timestamp at time zone 'UTC' else r.last_notification end,
         next_due_on = case when f.next_due_on > f.end_date then 'infinity'::date else f.next_due_on end,
         updated_at = case when f.notified then now() else r.updated_at end
       from following f where r.id = f.id
       returning f.notified
     )
     select (select count(*) from inserted)::text as notified, (select count(*) from stamped where notified) as stamped`,
    [given, instant, given, instant],
  );
  return Number(rows[0]?.notified ?? 0);
}

/** A goal's reminder as the cash-flow forecast plans it: a monthly contribution of `amount` from `start_date`. */
export interface ReminderPlanRow {
  goal_id: string;
  title: string;
  amount: string;
  start_date: string;
  end_date: string | null;
}

/** The reminders of the context's goals (through its goals' index, then each goal's reminder). */
export async function reminderPlans(em: EntityManager, ctx: CallerContext): Promise<ReminderPlanRow[]> {
  const statement = reminderPlansStatement(ctx);
  return runSql<ReminderPlanRow>(em, statement.sql, statement.params);
}

/** The statement of `reminderPlans` (insights schema on the search path); the bench's forecast floor runs it too. */
export function reminderPlansStatement(ctx: CallerContext): { sql: string; params: unknown[] } {
  const scope = contextSql(ctx, 'g');
  return {
    sql: `select g.id as goal_id, g.title, r.amount::text as amount, to_char(r.start_date, 'YYYY-MM-DD') as start_date,
            to_char(r.end_date, 'YYYY-MM-DD') as end_date
     from goals g join goal_reminders r on r.goal_id = g.id
     where ${scope.sql} order by g.id`,
    params: scope.params,
  };
}
