import Joi from 'joi';
import { anyUuid, calendarDate, type PeriodQuery } from '../common.ts';
import { defineRoute } from '../route.ts';

/** A category as the public Category record shows it. */
export interface CategoryRef {
  id: string;
  name: string;
  is_expense: boolean;
  is_essential: boolean;
  is_hidden: boolean;
  icon: string | null;
  icon_name: string;
  icon_background_color: string;
  image: string | null;
  profile_id: string | null;
  user_id: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubcategoryRef {
  id: string;
  category_id: string;
  name: string;
}

export interface CategoryRefs {
  categories: CategoryRef[];
  subcategories: SubcategoryRef[];
}

export interface CategoryRefsInput {
  category_ids: string[];
  subcategory_ids: string[];
}

/** One spending window: live expenses of a category (or subcategory) between two dates, inclusive. */
export interface SpendingWindow {
  key: string;
  category_id: string;
  subcategory_id: string | null;
  from: string;
  to: string;
}

export interface SubcategoryAggregate {
  id: string;
  title: string;
  value: number;
  is_expense: boolean;
  is_essential: boolean;
  icon_name: string;
  icon_background_color: string;
  image: string | null;
}

export interface Summary {
  total_balance: number;
  income: number;
  expenses: number;
  to_pay: number;
  to_receive: number;
}

export interface DreGroupTotal {
  dre_group: string;
  income: number;
  expenses: number;
}

/**
 * What a cash-flow forecast reads, up to `end_date`, or `days` after the context's today (one account, or all of the
 * context): one of the two.
 */
export interface CashFlowQuery {
  end_date?: string;
  days?: number;
  account_id?: string;
}

/** A share of a movement by cost center: the movement's own, or one per part of a split entry (signed cents). */
export interface CostCenterShare {
  cost_center_id: string | null;
  amount: number;
}

/** A live account with its balance now; `counts_in_total`: the summary's `total_balance` counts it (preferences). */
export interface CashFlowAccount {
  id: string;
  name: string;
  type: string | null;
  is_default: boolean;
  counts_in_total: boolean;
  balance: number;
}

/** An unpaid account entry still to move money (signed: income +, expense −). */
export interface CashFlowEntry {
  transaction_id: string;
  account_id: string;
  date: string;
  amount: number;
  title: string;
  type: string;
  cost_centers: CostCenterShare[];
}

/** An occurrence of a recurrence beyond those written yet, as its latest member (on an account, or on a card). */
export interface CashFlowOccurrence {
  series_id: string;
  account_id: string | null;
  credit_card_id: string | null;
  date: string;
  amount: number;
  title: string;
  cost_centers: CostCenterShare[];
}

/**
 * The ledger's ingredients of a forecast: the context's today (its zone's) and the last day read, the alert threshold
 * (`cash_flow_threshold`, cents), the accounts, entries and occurrences.
 */
export interface CashFlowInputs {
  today: string;
  end_date: string;
  threshold: number;
  accounts: CashFlowAccount[];
  entries: CashFlowEntry[];
  occurrences: CashFlowOccurrence[];
}

/** `open_bill_ids`: billing's current bills of the context, whose purchases the open-bill preferences govern. */
export type SummaryQuery = PeriodQuery & { today: string; open_bill_ids: string[] };

const period = { start_date: calendarDate().required(), end_date: calendarDate().required() };
const ids = Joi.array().items(anyUuid()).max(1000).default([]);
const common = { service: 'ledger' as const, internal: true, tag: 'Internal: ledger for insights' };

/** The aggregates insights reads over HTTP (it never queries the ledger schema). */
export const ledgerForInsightsRoutes = [
  defineRoute({
    ...common,
    operationId: 'categoryRefs',
    method: 'post',
    path: '/internal/v1/aggregates/category-refs',
    summary: 'Categories and subcategories by id, as the public records show them',
    body: Joi.object<CategoryRefsInput>({ category_ids: ids, subcategory_ids: ids }),
    responses: { 200: { description: '`{categories, subcategories}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'spendingByWindow',
    method: 'post',
    path: '/internal/v1/aggregates/spending',
    summary: 'Spent cents per window key',
    body: Joi.object<{ windows: SpendingWindow[] }>({
      windows: Joi.array()
        .items(
          Joi.object({
            key: Joi.string().max(200).required(),
            category_id: anyUuid().required(),
            subcategory_id: anyUuid().allow(null).required(),
            from: calendarDate().required(),
            to: calendarDate().required(),
          }),
        )
        .max(5000)
        .required(),
    }),
    responses: { 200: { description: '`{spent}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'totalsBySubcategory',
    method: 'get',
    path: '/internal/v1/aggregates/by-subcategory',
    summary: 'Totals of a period by subcategory',
    query: Joi.object<PeriodQuery>(period),
    responses: { 200: { description: '`{items}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'periodSummary',
    method: 'get',
    path: '/internal/v1/aggregates/summary',
    summary: 'Balance, income, expenses and what is left to pay and receive in a period',
    query: Joi.object<SummaryQuery>({ ...period, today: calendarDate().required(), open_bill_ids: ids.single() }),
    responses: { 200: { description: 'The summary' } },
  }),
  defineRoute({
    ...common,
    operationId: 'cashFlowInputs',
    method: 'get',
    path: '/internal/v1/aggregates/cash-flow',
    summary: 'Balances now, entries still to be paid or received and the unwritten occurrences of recurrences',
    query: Joi.object<CashFlowQuery>({
      end_date: calendarDate(),
      days: Joi.number().integer().min(0).max(800),
      account_id: anyUuid(),
    }).xor('end_date', 'days'),
    responses: { 200: { description: '`CashFlowInputs`' }, 404: { description: 'Unknown account' } },
  }),
  defineRoute({
    ...common,
    operationId: 'dreTotals',
    method: 'get',
    path: '/internal/v1/aggregates/dre',
    summary: 'Income and expenses of a period per DRE group',
    query: Joi.object<PeriodQuery>(period),
    responses: { 200: { description: '`{groups}`' } },
  }),
];
