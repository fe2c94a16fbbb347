import Joi from 'joi';
import {
  anyUuid,
  calendarDate,
  errorSchema,
  idParams,
  listQuery,
  ownership,
  type PageQuery,
  page,
  positiveCents,
} from '../common.ts';
import { defineRoute } from '../route.ts';
import { validDay } from './fields.ts';

export const LIMIT_FREQUENCY_VALUES = [
  'DAILY',
  'WEEKLY',
  'BIWEEKLY',
  'MONTHLY',
  'BIMONTHLY',
  'QUARTERLY',
  'SEMIANNUAL',
  'ANNUAL',
] as const;
export type LimitFrequency = (typeof LIMIT_FREQUENCY_VALUES)[number];

const currentWindowSchema = Joi.object({
  from: calendarDate().required(),
  to: calendarDate().required(),
  spent: Joi.number().integer().required(),
  percentage: Joi.number().required().description('spent / amount × 100, two decimals'),
  status: Joi.string().valid('OK', 'WARNING', 'EXCEEDED').required(),
}).label('SpendingLimitWindow');

export const spendingLimitSchema = Joi.object({
  id: anyUuid().required(),
  title: Joi.string().required(),
  amount: Joi.number().integer().required(),
  category_id: anyUuid().required(),
  subcategory_id: anyUuid().allow(null).required(),
  frequency: Joi.string()
    .valid(...LIMIT_FREQUENCY_VALUES)
    .allow(null)
    .required(),
  start_date: calendarDate().required(),
  notification_percentage: Joi.number().integer().required(),
  current_window: currentWindowSchema.required(),
  ...ownership,
}).label('SpendingLimit');

/** A limit's fields as a client sends them (all optional on update; `frequency` upper-cased). */
export interface SpendingLimitFields {
  amount?: number;
  category_id?: string;
  subcategory_id?: string | null;
  frequency?: LimitFrequency;
  start_date?: string;
  title?: string;
  notification_percentage?: number;
}

/** A new limit: amount and category are required. */
export type CreateSpendingLimitBody = SpendingLimitFields & { amount: number; category_id: string };

const fields = {
  amount: positiveCents(),
  category_id: anyUuid(),
  subcategory_id: anyUuid().allow(null),
  frequency: Joi.string()
    .uppercase()
    .valid(...LIMIT_FREQUENCY_VALUES),
  start_date: validDay(),
  title: Joi.string().trim().min(1).max(100),
  notification_percentage: Joi.number().integer().strict().min(1).max(100),
};

const createBody = Joi.object<CreateSpendingLimitBody>({
  ...fields,
  amount: fields.amount.required(),
  category_id: fields.category_id.required(),
}).label('CreateSpendingLimit');

const updateBody = Joi.object<SpendingLimitFields>(fields).min(1).label('UpdateSpendingLimit');

const notFound = { description: 'Unknown limit, or a category/subcategory of another context', schema: errorSchema };
const invalid = { description: 'Validation error with details', schema: errorSchema };
const TAG = 'Spending limits';
const WINDOW_DOC =
  '`current_window` is the window holding the context’s today (its `time_zone`, `/v2/personal-config`; the first window while `start_date` is in the future): spent = live expenses of the category (subcategory when set) dated in it **up to today** (entries dated later, such as the coming months of a recurrence, are no spending yet), a split expense by its parts in the category, transfers and bill payments excluded; status WARNING from `notification_percentage`, EXCEEDED from 100 %. Warnings (one per level per window) follow a purchase dated up to today at once; a window whose entries were recorded in advance warns on the day they fall due (an hourly job acting on each context’s day).';

export const spendingLimitRoutes = [
  defineRoute({
    operationId: 'createSpendingLimit',
    method: 'post',
    path: '/v1/spending-limits',
    service: 'insights',
    tag: TAG,
    summary: 'Create a spending limit',
    description: `Defaults: \`title\` = the category name, \`frequency\` MONTHLY (lower case accepted), \`start_date\` = first day of the context’s current month (its time zone), \`notification_percentage\` 80 (1–100). \`category_id\` must be visible in the context (404 otherwise); \`subcategory_id\` must belong to it (400). ${WINDOW_DOC}`,
    body: createBody,
    example: { amount: 150000, category_id: 'c0000000-0000-4000-8000-000000000001', frequency: 'monthly' },
    responses: { 201: { description: 'The limit', schema: spendingLimitSchema }, 400: invalid, 404: notFound },
  }),
  defineRoute({
    operationId: 'listSpendingLimits',
    method: 'get',
    path: '/v1/spending-limits',
    service: 'insights',
    tag: TAG,
    summary: 'List the spending limits of the context',
    description: `Ordered by creation. ${WINDOW_DOC}`,
    query: Joi.object<PageQuery>(listQuery),
    responses: { 200: { description: 'A page of limits', schema: page(spendingLimitSchema, 'SpendingLimitPage') } },
  }),
  defineRoute({
    operationId: 'getSpendingLimit',
    method: 'get',
    path: '/v1/spending-limits/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Get one spending limit',
    description: WINDOW_DOC,
    params: idParams,
    responses: { 200: { description: 'The limit', schema: spendingLimitSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'updateSpendingLimit',
    method: 'put',
    path: '/v1/spending-limits/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Update a spending limit',
    description:
      'Same fields as creation, all optional: only those sent change. A new category or subcategory is checked like on creation.',
    params: idParams,
    body: updateBody,
    example: { amount: 200000, notification_percentage: 90 },
    responses: { 200: { description: 'The limit', schema: spendingLimitSchema }, 400: invalid, 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteSpendingLimit',
    method: 'delete',
    path: '/v1/spending-limits/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Delete a spending limit',
    description: 'Answers the deleted limit; its notifications stay.',
    params: idParams,
    responses: { 200: { description: 'The deleted limit', schema: spendingLimitSchema }, 404: notFound },
  }),
];
