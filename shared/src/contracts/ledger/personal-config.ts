import Joi from 'joi';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '../../clock.ts';
import { cents, MAX_AMOUNT } from '../common.ts';
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

/** The preferences a client changes: any of the flags, the time zone (its canonical IANA name) and the alert threshold. */
export type PersonalConfigFields = Partial<Record<ConfigFlag, boolean>> & {
  time_zone?: string;
  cash_flow_threshold?: number;
};

const THRESHOLD_DOC =
  'Cents (default 0, may be negative: an overdraft the account may reach): a projected balance below it is a shortfall of the cash-flow forecast (`GET /v1/reports/cash-flow`), notified once per episode (`CASH_FLOW_SHORTFALL`, webhook `cash_flow.shortfall`).';

/** Values in force until a context saves its preferences (docs/decisions.md §10). */
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
    'automatic reconciliation of forecast payments (default false): each effected entry an import (bank connection, JSON or statement file) creates, or turns effected, settles at most one live, unpaid, manual (no `external_id`), not yet reconciled forecast of the context with the same account (or card), direction and amount dated within 5 days (closest date, then oldest); the forecast gets `reconciled_at`, `reconciled_by_user_id` (the importing user) and `reconciled_with_transaction_id` and stops counting in reports; with it off the pairs are listed by `GET /v1/reconciliation/suggestions`',
  include_bill_payments: 'bill payments count in totals (default false)',
  include_current_bill_in_to_pay: 'the purchases of the current (OPEN) bill count in the summary to_pay (default true)',
  include_investments: 'investment accounts count in the balance (default false)',
  include_transfers: 'transfers count in totals (default false)',
  show_open_bill: 'the purchases of the current (OPEN) bill count in the summary income/expenses (default true)',
};

const TIME_ZONE_DOC = `IANA time zone of the context (default \`${DEFAULT_TIME_ZONE}\`): its calendar is the context's "today" and every day boundary — bill status (OVERDUE from local midnight after the due date), default dates (reports, bill reads, payments, limit start), limit windows, goal reminders, the recurrence horizon and the bill rollover. A name \`Intl\` does not know is 400.`;

/** An IANA zone name `Intl` knows (e.g. `America/Manaus`); anything else is 400 in Portuguese. */
export const timeZoneInput = () =>
  Joi.string()
    .max(64)
    .custom(
      (value: string, helpers) =>
        canonicalTimeZone(value) ??
        helpers.message({ custom: '{{#label}} deve ser um fuso horário IANA válido, como America/Sao_Paulo' }),
    )
    .description(TIME_ZONE_DOC)
    .example('America/Manaus');

export const personalConfigSchema = Joi.object({
  ...Object.fromEntries(
    CONFIG_FLAGS.map((flag) => [flag, Joi.boolean().required().description(flagDescriptions[flag])]),
  ),
  time_zone: Joi.string().required().description(TIME_ZONE_DOC),
  cash_flow_threshold: Joi.number().integer().required().description(THRESHOLD_DOC),
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
      'Preferences belong to the key’s context (personal or company: a company key sets the company’s own, e.g. its `time_zone`). Until the first PUT the defaults apply (`time_zone` America/Sao_Paulo) and `configured` is false.',
    responses: { 200: { description: 'The preferences', schema: personalConfigSchema } },
  }),
  defineRoute({
    ...common,
    operationId: 'updatePersonalConfig',
    method: 'put',
    path: '/v2/personal-config',
    summary: 'Change the preferences of the context',
    description:
      'Any of the six booleans, `time_zone` (an IANA name such as `America/Manaus`; 400 otherwise) and `cash_flow_threshold` (cents); only those sent change, the others keep their saved or default value. An empty body is 400; `configured` is read-only (sending it is 400). After the first PUT `configured` is true.',
    body: Joi.object<PersonalConfigFields>({
      ...Object.fromEntries(CONFIG_FLAGS.map((flag) => [flag, Joi.boolean().strict()])),
      time_zone: timeZoneInput(),
      cash_flow_threshold: cents().min(-MAX_AMOUNT).max(MAX_AMOUNT).description(THRESHOLD_DOC),
    })
      .min(1)
      .required()
      .label('UpdatePersonalConfig'),
    example: { include_transfers: true, show_open_bill: false },
    responses: { 200: { description: 'The preferences', schema: personalConfigSchema } },
  }),
];
