import Joi from 'joi';
import { defineRoute } from '../route.ts';

export const CONFIG_FLAGS = [
  'auto_reconcile_enabled',
  'include_bill_payments',
  'include_current_bill_in_to_pay',
  'include_investments',
  'include_transfers',
  'show_open_bill',
] as const;
export type ConfigFlag = (typeof CONFIG_FLAGS)[number];

/** Values in force until a context saves its preferences (PRODUCT.md §10). */
export const CONFIG_DEFAULTS: Record<ConfigFlag, boolean> = {
  auto_reconcile_enabled: false,
  include_bill_payments: false,
  include_current_bill_in_to_pay: true,
  include_investments: false,
  include_transfers: false,
  show_open_bill: true,
};

const flagDescriptions: Record<ConfigFlag, string> = {
  auto_reconcile_enabled:
    'automatic reconciliation of forecast payments (default false): each entry an open-banking import creates settles at most one live, unpaid, manual (no `external_id`), not yet reconciled forecast of the context with the same account (or card), direction and amount dated within 5 days (closest date, then oldest); the forecast gets `reconciled_at`, `reconciled_by_user_id` (the importing user) and `reconciled_with_transaction_id` and stops counting in reports',
  include_bill_payments: 'bill payments count in totals (default false)',
  include_current_bill_in_to_pay: 'the purchases of the current (OPEN) bill count in the summary to_pay (default true)',
  include_investments: 'investment accounts count in the balance (default false)',
  include_transfers: 'transfers count in totals (default false)',
  show_open_bill: 'the purchases of the current (OPEN) bill count in the summary income/expenses (default true)',
};

export const personalConfigSchema = Joi.object({
  ...Object.fromEntries(
    CONFIG_FLAGS.map((flag) => [flag, Joi.boolean().required().description(flagDescriptions[flag])]),
  ),
  configured: Joi.boolean().required().description('true once the context has saved preferences; read-only'),
}).label('PersonalConfig');

const common = { service: 'ledger' as const, tag: 'Preferences' };

export const personalConfigRoutes = [
  defineRoute({
    ...common,
    operationId: 'getPersonalConfig',
    method: 'get',
    path: '/v2/personal-config',
    summary: 'Get the preferences of the context',
    description:
      'Preferences belong to the key’s context (personal or company). Until the first PUT the defaults apply and `configured` is false.',
    responses: { 200: { description: 'The preferences', schema: personalConfigSchema } },
  }),
  defineRoute({
    ...common,
    operationId: 'updatePersonalConfig',
    method: 'put',
    path: '/v2/personal-config',
    summary: 'Change the preferences of the context',
    description:
      'Any of the six booleans; only those sent change, the others keep their saved or default value. An empty body is 400; `configured` is read-only (sending it is 400). After the first PUT `configured` is true.',
    body: Joi.object(Object.fromEntries(CONFIG_FLAGS.map((flag) => [flag, Joi.boolean().strict()])))
      .min(1)
      .required()
      .label('UpdatePersonalConfig'),
    example: { include_transfers: true, show_open_bill: false },
    responses: { 200: { description: 'The preferences', schema: personalConfigSchema } },
  }),
];
