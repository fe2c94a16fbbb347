import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextWhere } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Goal,
  type GoalReminder,
  GoalReminderSchema,
  GoalSchema,
  type GoalValue,
  GoalValueSchema,
} from './entities/goal.ts';

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
  const connection = em.getConnection();
  const context = em.getTransactionContext();
  await connection.execute('select id from goals where id = ? for update', [goalId], 'all', context);
  const rows: Array<{ saved: string }> = await connection.execute(
    'select coalesce(sum(case when is_expense then -value else value end), 0)::text as saved from goal_values where goal_id = ?',
    [goalId],
    'all',
    context,
  );
  return Number(rows[0]?.saved ?? 0);
}
