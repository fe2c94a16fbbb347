import Joi from 'joi';
import { anyUuid, calendarDate, errorSchema } from '../common.ts';
import { defineRoute } from '../route.ts';
import { validDay } from './fields.ts';

/** Days a forecast may reach after the context's today. */
export const MAX_FORECAST_DAYS = 731;
/** Days after today the shortfall alerts look ahead. */
export const SHORTFALL_HORIZON_DAYS = 90;

export const MOVEMENT_KINDS = ['ENTRY', 'RECURRENCE', 'BILL', 'GOAL'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** The period and the account of a forecast; both dates default (today, then 30 days on). */
export interface CashFlowReportQuery {
  start_date?: string;
  end_date?: string;
  account_id?: string;
}

const movementSchema = Joi.object({
  kind: Joi.string()
    .valid(...MOVEMENT_KINDS)
    .required()
    .description(
      'ENTRY: an unpaid account entry (scheduled, pending, an installment or occurrence already written); RECURRENCE: an occurrence of a recurrence its horizon has not written yet; BILL: a card bill paid in full at its due date from its card’s account; GOAL: a goal’s planned monthly contribution (its reminder), from the default account',
    ),
  account_id: anyUuid().required(),
  amount: Joi.number().integer().required().description('Signed cents: + money in, − money out'),
  title: Joi.string().required(),
  date: calendarDate()
    .required()
    .description('Its own date: earlier than the day for what is overdue (owed before today and counted today)'),
  transaction_id: anyUuid().allow(null).required(),
  series_id: anyUuid().allow(null).required(),
  bill_id: anyUuid().allow(null).required().description('Null for a bill of projected purchases only'),
  credit_card_id: anyUuid().allow(null).required(),
  goal_id: anyUuid().allow(null).required(),
}).label('CashFlowMovement');

const costCenterSchema = Joi.object({
  cost_center_id: anyUuid().allow(null).required().description('Null: movements of no cost center (bills, goals)'),
  net: Joi.number().integer().required().description('What the day’s movements add up to in this cost center'),
  cumulative: Joi.number().integer().required().description('The net from today through this day'),
}).label('CashFlowCostCenter');

const daySchema = Joi.object({
  date: calendarDate().required(),
  total_balance: Joi.number()
    .integer()
    .required()
    .description('End of day, the accounts that count in the total (`counts_in_total`)'),
  movements: Joi.array().items(movementSchema).required(),
  cost_centers: Joi.array()
    .items(costCenterSchema)
    .description('A company’s: the day’s movements by cost center (a split entry by its parts’)'),
}).label('CashFlowDay');

export const cashFlowSchema = Joi.object({
  today: calendarDate().required(),
  start_date: calendarDate().required(),
  end_date: calendarDate().required(),
  threshold: Joi.number().integer().required().description('`cash_flow_threshold` of the preferences (cents)'),
  accounts: Joi.array()
    .items(
      Joi.object({
        account_id: anyUuid().required(),
        name: Joi.string().required(),
        counts_in_total: Joi.boolean().required(),
        balance: Joi.number().integer().required().description('Now, as `GET /v1/accounts` shows it'),
        first_shortfall_date: calendarDate()
          .allow(null)
          .required()
          .description('The first day from today through `end_date` whose balance ends below `threshold`'),
        lowest_balance: Joi.number().integer().required(),
        lowest_balance_date: calendarDate().required(),
        balances: Joi.array()
          .items(Joi.number().integer())
          .required()
          .description('End of each day: `balances[i]` is the balance at the end of `days[i]`'),
      }).label('CashFlowAccount'),
    )
    .required(),
  days: Joi.array().items(daySchema).required(),
}).label('CashFlowForecast');

const DESCRIPTION = [
  "The projected balance of each account at the end of every day (`accounts[].balances[i]`, of `days[i]`) from `start_date` (default the context's today; not before it) to `end_date` (default 30 days after `start_date`; at most 731 days after today), and their total with the preferences that change it (`include_total_balance`, investment accounts only with `include_investments`). `account_id` keeps one account (404 when not the context's).",
  "It starts from each account's balance now and moves it by: unpaid account entries (scheduled boletos, pending imports, installments and occurrences already written; one dated before today is still owed and counts today; bill payments are left to their bill), the occurrences of each open recurrence beyond those written yet (its latest member's amount, up to its end), each card bill the rollover has not carried yet at its due date from its card's account, at its current balance (an overdue one today; card installments and occurrences are in their bills, the unwritten occurrences of a card recurrence in the bill of their date; a bill's credit lowers the card's next bill), and each goal's planned monthly contribution (its reminder's amount on its day, from the default account). Each day lists what moves it. Amounts in BRL cents (entries in another currency are left out).",
  "A company's days add `cost_centers`: the day's net by cost center, a split entry by its parts'. `first_shortfall_date` is the first day an account ends below the context's `cash_flow_threshold` (`/v2/personal-config`, default 0); the first such day within 90 days is notified once per episode (`CASH_FLOW_SHORTFALL`, webhook `cash_flow.shortfall`), again only after the projection recovered and fell again.",
].join(' ');

export const cashFlowRoutes = [
  defineRoute({
    operationId: 'cashFlowReport',
    method: 'get',
    path: '/v1/reports/cash-flow',
    service: 'insights',
    tag: 'Reports',
    summary: 'Cash-flow forecast: the projected balance per day and account',
    description: DESCRIPTION,
    query: Joi.object<CashFlowReportQuery>({
      start_date: validDay(),
      end_date: validDay(),
      account_id: anyUuid(),
    }),
    responses: {
      200: { description: 'The forecast', schema: cashFlowSchema },
      400: { description: 'A period before today, reversed or too long', schema: errorSchema },
      404: { description: 'Unknown account or another context’s', schema: errorSchema },
    },
  }),
];
