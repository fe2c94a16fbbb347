import { BaseSchema, OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const GoalSchema = defineEntity({
  name: 'Goal',
  tableName: 'goals',
  extends: OwnedSchema,
  properties: {
    title: p.string(),
    amount: p.bigint('number'),
    deadline: p.date(),
    image: p.string().nullable(),
    isMonthly: p.boolean().default(false),
    homeCardClosed: p.boolean().default(false),
    categoryId: p.uuid().nullable(),
  },
});
export type Goal = InferEntity<typeof GoalSchema>;

/** A deposit (is_expense false) or withdrawal (true); the goal's context is its owner's. */
export const GoalValueSchema = defineEntity({
  name: 'GoalValue',
  tableName: 'goal_values',
  extends: BaseSchema,
  properties: {
    goalId: p.uuid(),
    date: p.date(),
    value: p.bigint('number'),
    isExpense: p.boolean(),
  },
});
export type GoalValue = InferEntity<typeof GoalValueSchema>;

export const GoalReminderSchema = defineEntity({
  name: 'GoalReminder',
  tableName: 'goal_reminders',
  extends: BaseSchema,
  properties: {
    goalId: p.uuid(),
    userId: p.uuid(),
    amount: p.bigint('number'),
    frequency: p.string(),
    startDate: p.date(),
    endDate: p.date().nullable(),
    lastNotification: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type GoalReminder = InferEntity<typeof GoalReminderSchema>;
