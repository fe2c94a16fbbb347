import { toIsoMidnight } from '@finance/shared/calendar';
import type { CategoryRef } from '@finance/shared/contracts/internal/ledger-for-insights';
import { iso } from '@finance/shared/db/context-scope';
import type { Goal, GoalReminder, GoalValue } from '../../data-access/entities/goal.ts';
import { goalProgress } from './goal-progress.ts';

export const goalValueView = (value: GoalValue) => ({
  id: value.id,
  goal_id: value.goalId,
  date: toIsoMidnight(value.date),
  value: value.value,
  is_expense: value.isExpense,
  createdAt: iso(value.createdAt),
  updatedAt: iso(value.updatedAt),
});

export const goalReminderView = (reminder: GoalReminder) => ({
  id: reminder.id,
  goal_id: reminder.goalId,
  amount: reminder.amount,
  frequency: reminder.frequency,
  start_date: reminder.startDate,
  end_date: reminder.endDate ?? null,
  last_notification: iso(reminder.lastNotification),
  user_id: reminder.userId,
  createdAt: iso(reminder.createdAt),
  updatedAt: iso(reminder.updatedAt),
});

export function goalView(
  goal: Goal,
  parts: { category: CategoryRef | null; values: GoalValue[]; reminder: GoalReminder | null },
) {
  return {
    id: goal.id,
    title: goal.title,
    amount: goal.amount,
    deadline: toIsoMidnight(goal.deadline),
    image: goal.image ?? null,
    is_monthly: goal.isMonthly,
    home_card_closed: goal.homeCardClosed,
    category_id: goal.categoryId ?? null,
    category: parts.category,
    values: parts.values.map(goalValueView),
    ...goalProgress(goal.amount, parts.values),
    reminder: parts.reminder ? goalReminderView(parts.reminder) : null,
    profile_id: goal.profileId ?? null,
    user_id: goal.userId,
    createdAt: iso(goal.createdAt),
    updatedAt: iso(goal.updatedAt),
  };
}
