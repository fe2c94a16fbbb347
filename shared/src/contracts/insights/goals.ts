import Joi from 'joi';
import {
  anyUuid,
  calendarDate,
  dayInput,
  errorSchema,
  listQuery,
  nullableTimestamp,
  ownership,
  type PageQuery,
  page,
  positiveCents,
  timestamp,
} from '../common.ts';
import { defineRoute } from '../route.ts';
import { validDay } from './fields.ts';

const categorySchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  is_expense: Joi.boolean(),
  is_essential: Joi.boolean().required(),
  is_hidden: Joi.boolean().required(),
  icon: Joi.string().allow(null).required(),
  icon_name: Joi.string().required(),
  icon_background_color: Joi.string().required(),
  image: Joi.string().allow(null).required(),
  profile_id: anyUuid().allow(null).required(),
  user_id: anyUuid().allow(null).required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
}).label('GoalCategory');

export const goalValueSchema = Joi.object({
  id: anyUuid().required(),
  goal_id: anyUuid().required(),
  date: timestamp().required(),
  value: Joi.number().integer().required(),
  is_expense: Joi.boolean().required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
}).label('GoalValue');

const reminderSchema = Joi.object({
  id: anyUuid().required(),
  goal_id: anyUuid().required(),
  amount: Joi.number().integer().required(),
  frequency: Joi.string().valid('MONTHLY').required(),
  start_date: calendarDate().required(),
  end_date: calendarDate().allow(null).required(),
  last_notification: nullableTimestamp().required(),
  user_id: anyUuid().required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
}).label('GoalReminder');

export const goalSchema = Joi.object({
  id: anyUuid().required(),
  title: Joi.string().required(),
  amount: Joi.number().integer().required(),
  deadline: timestamp().required(),
  image: Joi.string().allow(null).required(),
  is_monthly: Joi.boolean().required(),
  home_card_closed: Joi.boolean().required(),
  category_id: anyUuid().allow(null).required(),
  category: categorySchema.allow(null).required(),
  values: Joi.array().items(goalValueSchema).required(),
  saved: Joi.number()
    .integer()
    .required()
    .description('Money in the goal: deposits − withdrawals of `values`, in cents'),
  progress_percent: Joi.number()
    .min(0)
    .required()
    .description(
      '`saved` ÷ `amount` × 100, rounded down to two decimals (0 when nothing is saved; above 100 when more than `amount` was saved)',
    ),
  reminder: reminderSchema.allow(null).required(),
  ...ownership,
}).label('Goal');

/** A goal's monthly reminder as a client sends it (`frequency` defaults to MONTHLY). */
export interface ReminderFields {
  amount: number;
  frequency: 'MONTHLY';
  start_date: string;
  end_date?: string | null;
}

/** A goal's fields as a client sends them (all optional on update); `reminder: null` removes the reminder. */
export interface GoalFields {
  title?: string;
  amount?: number;
  deadline?: string;
  image?: string | null;
  is_monthly?: boolean;
  home_card_closed?: boolean;
  category_id?: string | null;
  reminder?: ReminderFields | null;
}

/** A new goal: title, amount and deadline are required. */
export type CreateGoalBody = GoalFields & { title: string; amount: number; deadline: string };

/** A deposit (or, with `is_expense`, a withdrawal) of a goal; `is_expense` defaults to false. */
export interface GoalValueBody {
  date: string;
  value: number;
  is_expense: boolean;
}

const reminderBody = Joi.object<ReminderFields>({
  amount: positiveCents().required(),
  frequency: Joi.string().uppercase().valid('MONTHLY').default('MONTHLY'),
  start_date: validDay().required(),
  end_date: validDay().allow(null),
}).label('GoalReminderInput');

const fields = {
  title: Joi.string().trim().min(1).max(100),
  amount: positiveCents(),
  deadline: dayInput(),
  image: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2048)
    .allow(null),
  is_monthly: Joi.boolean().strict(),
  home_card_closed: Joi.boolean().strict(),
  category_id: anyUuid().allow(null),
  reminder: reminderBody.allow(null),
};

const createBody = Joi.object<CreateGoalBody>({
  ...fields,
  title: fields.title.required(),
  amount: fields.amount.required(),
  deadline: fields.deadline.required(),
}).label('CreateGoal');
const updateBody = Joi.object<GoalFields>(fields).min(1).label('UpdateGoal');

const valueBody = Joi.object<GoalValueBody>({
  date: validDay().required(),
  value: positiveCents().required(),
  is_expense: Joi.boolean().strict().default(false),
}).label('CreateGoalValue');

const goalParams = Joi.object<{ id: string }>({ id: anyUuid().required() });
const valueParams = Joi.object<{ id: string; valueId: string }>({
  id: anyUuid().required(),
  valueId: anyUuid().required(),
});
const notFound = { description: 'Unknown goal, or an id of another context', schema: errorSchema };
const invalid = { description: 'Validation error with details', schema: errorSchema };
const TAG = 'Goals';
const REMINDER_DOC =
  '`reminder` {amount, frequency MONTHLY, start_date, end_date?} notifies once a month on the day of `start_date` (clamped to the month end) between `start_date` and `end_date` (a GOAL_REMINDER notification from an hourly job acting on the context’s day in its `time_zone`, so it goes out within the hour after local midnight; it sets `last_notification`). Every goal carries `saved` (deposits − withdrawals) and `progress_percent`.';

export const goalRoutes = [
  defineRoute({
    operationId: 'createGoal',
    method: 'post',
    path: '/v2/goals',
    service: 'insights',
    tag: TAG,
    summary: 'Create a goal',
    description: `\`title\`, \`amount\` and \`deadline\` are required; \`category_id\` must be visible in the context (404). ${REMINDER_DOC}`,
    body: createBody,
    example: {
      title: 'Viagem',
      amount: 1_000_000,
      deadline: '2027-06-30',
      reminder: { amount: 50000, frequency: 'MONTHLY', start_date: '2026-01-10' },
    },
    responses: { 201: { description: 'The goal', schema: goalSchema }, 400: invalid, 404: notFound },
  }),
  defineRoute({
    operationId: 'listGoals',
    method: 'get',
    path: '/v2/goals',
    service: 'insights',
    tag: TAG,
    summary: 'List the goals of the context',
    description: 'Ordered by creation; each goal with its category, values and reminder.',
    query: Joi.object<PageQuery>(listQuery),
    responses: { 200: { description: 'A page of goals', schema: page(goalSchema, 'GoalPage') } },
  }),
  defineRoute({
    operationId: 'getGoal',
    method: 'get',
    path: '/v2/goals/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Get one goal with its category, values and reminder',
    params: goalParams,
    responses: {
      200: { description: 'The goal', schema: Joi.object({ goal: goalSchema }).label('GoalEnvelope') },
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'updateGoal',
    method: 'put',
    path: '/v2/goals/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Update a goal',
    description: `Only fields sent change; \`reminder: null\` removes the reminder, an object replaces it (keeping \`last_notification\`). ${REMINDER_DOC}`,
    params: goalParams,
    body: updateBody,
    example: { amount: 1_200_000 },
    responses: { 200: { description: 'The goal', schema: goalSchema }, 400: invalid, 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteGoal',
    method: 'delete',
    path: '/v2/goals/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Delete a goal with its values and reminder',
    params: goalParams,
    responses: { 200: { description: 'The deleted goal', schema: goalSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'createGoalValue',
    method: 'post',
    path: '/v2/goals/:id/values',
    service: 'insights',
    tag: TAG,
    summary: 'Register a deposit or a withdrawal',
    description:
      '`is_expense: true` is a withdrawal; a withdrawal beyond the saved amount (deposits − withdrawals) is 400.',
    params: goalParams,
    body: valueBody,
    example: { date: '2026-01-10', value: 50000, is_expense: false },
    responses: { 201: { description: 'The value', schema: goalValueSchema }, 400: invalid, 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteGoalValue',
    method: 'delete',
    path: '/v2/goals/:id/values/:valueId',
    service: 'insights',
    tag: TAG,
    summary: 'Delete a deposit or a withdrawal',
    description: 'Deleting a deposit that would leave the saved amount negative is 400.',
    params: valueParams,
    responses: { 200: { description: 'The deleted value', schema: goalValueSchema }, 400: invalid, 404: notFound },
  }),
];
