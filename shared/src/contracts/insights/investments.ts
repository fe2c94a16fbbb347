import Joi from 'joi';
import { bankDay, calendarDate, errorSchema } from '../common.ts';
import { defineRoute } from '../route.ts';

const cents = () => Joi.number().integer();
const count = () => Joi.number().integer().min(0);
const day = () => calendarDate();

const periodSchema = Joi.object({
  computable: Joi.boolean().required(),
  coverage_percent: Joi.number().required(),
  from_date: day().allow(null).required(),
  to_date: day().allow(null).required(),
  interval_days: count().required(),
  label: Joi.string().required(),
  yield_cents: cents().required(),
  yield_percent: Joi.number().required(),
  items_missing: count().required(),
  positions_closed: count().required(),
  positions_computed: count().required(),
  positions_new: count().required(),
  positions_total: count().required(),
  positions_unknown: count().required(),
}).label('YieldPeriod');

const positionSchema = Joi.object({
  investment_id: Joi.string().required(),
  name: Joi.string().required(),
  bank_name: Joi.string().required(),
  label: Joi.string().required(),
  type: Joi.string().required().description('e.g. FIXED_INCOME'),
  subtype: Joi.string().allow(null).required().description('e.g. TREASURY'),
  basis: Joi.string().valid('snapshot').required(),
  balance_cents: cents().required(),
  yield_cents: cents().required(),
  yield_percent: Joi.number().required(),
}).label('YieldPosition');

export const yieldReportSchema = Joi.object({
  available: Joi.boolean().required(),
  reason: Joi.string().allow('').required(),
  by_type: Joi.array()
    .items(
      Joi.object({
        label: Joi.string().required(),
        balance_cents: cents().required(),
        yield_cents: cents().required(),
      }).label('YieldByType'),
    )
    .required(),
  positions: Joi.array().items(positionSchema).required(),
  today: periodSchema.required(),
  previous: periodSchema.required(),
  last_7_days: periodSchema.required(),
  month_to_date: periodSchema.required(),
  estimated_ready_date: day().required(),
  first_snapshot_date: day().allow(null).required(),
  latest_snapshot_date: day().allow(null).required(),
  snapshot_days: count().required(),
  total_balance_cents: cents().required(),
}).label('InvestmentYieldReport');

/** The yield report's request: `date` (a validated calendar day) defaults to the context's today. */
export interface YieldReportQuery {
  date?: string;
  limit: number;
}

export const investmentRoutes = [
  defineRoute({
    operationId: 'investmentYield',
    method: 'get',
    path: '/v1/investments/yield',
    service: 'insights',
    tag: 'Investments',
    summary: 'Daily yield of the imported investment positions',
    description: [
      'Computed from the balance snapshots of positions imported through open banking (one balance per position per day), never from a live bank query. Only snapshots dated on or before `date` (default the context’s today in its `time_zone`, `/v2/personal-config`) count.',
      '`snapshot_days` = distinct days with a snapshot; `available` needs at least 2, otherwise `reason` says why and `estimated_ready_date` is the day after the first snapshot (or after `date` when there is none); once available it is the second snapshot day. `first_snapshot_date` / `latest_snapshot_date` are null without snapshots.',
      'A period (from_date, to_date] compares the snapshots of both days position by position: both present → computed (yield = balance(to) − balance(from)); only at to → new; only at from → closed; otherwise unknown. `items_missing` = new + closed + unknown, `coverage_percent` = computed / total × 100, `computable` = at least one computed, `yield_percent` = yield / Σ balance(from) of the computed positions × 100 (2 decimals, half away from zero; 0 when the base is not positive).',
      '`today` (Hoje) = latest snapshot day vs the one before; `previous` (Anterior) = that one vs the one before it; `last_7_days` (Últimos 7 dias) and `month_to_date` (Mês atual) run from the last snapshot day on or before 7 days before the latest / the end of the previous month, to the latest. A period without both days is not computable: every count is 0 and missing days are null.',
      "`positions`: the positions present on the latest snapshot day, largest balance first (then name, then investment_id), at most `limit` (1–50, default 20); their yield is today's; `label` is the type label. `by_type`: per type label, latest balance and today's yield, largest balance first. `total_balance_cents`: sum of the latest balances.",
    ].join('\n\n'),
    query: Joi.object<YieldReportQuery>({
      date: bankDay().description(
        'reference date, YYYY-MM-DD or ISO 8601 (the day as written), 1900–2999; default the context’s today (its time zone)',
      ),
      limit: Joi.number().integer().min(1).max(50).default(20),
    }),
    responses: {
      200: { description: 'The report', schema: yieldReportSchema },
      400: { description: 'Invalid date (or outside 1900–2999) or limit outside 1–50', schema: errorSchema },
    },
  }),
];
