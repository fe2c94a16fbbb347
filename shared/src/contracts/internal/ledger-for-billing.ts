import Joi from 'joi';
import { anyUuid, calendarDate, positiveCents } from '../common.ts';
import { defineRoute } from '../route.ts';

/** A ledger transaction row as the bill endpoints show it, with its related objects (docs/decisions.md §8). */
export type CardTransaction = Record<string, unknown> & {
  id: string;
  amount: number;
  date: string;
  is_expense: boolean;
  bill_id: string | null;
  installment_number: number | null;
  installments: number;
  category_id: string | null;
  operation_type: string | null;
  is_bill_payment: boolean;
  is_previous_balance: boolean;
};

/** Sums of one bill as the ledger sees them (cents). */
export interface BillTotals {
  bill_id: string;
  purchases: number;
  credits: number;
  payments: number;
  costs: number;
  count: number;
  /** Signed net (expenses − credits) of the bill's recurrence occurrences. */
  recurring: number;
}

export interface BillRowsInput {
  credit_card_id: string;
  bill_ids: string[];
  /** The bill's closing date: a row's `projected_date` when it has no `billed_at` (docs/decisions.md §8). */
  closing_date: string;
  /** The card's record as the bill shows it (billing's: its `available_limit` depends on the bills' totals). */
  credit_card: Record<string, unknown>;
}

export interface CardDatesInput {
  credit_card_id: string;
  /** Only transactions dated from this day on; null for all. */
  from: string | null;
}

export interface CardTransactionDate {
  id: string;
  date: string;
  bill_id: string | null;
}

/** A card's bill periods as billing holds them after a closing-day change, under one calendar version. */
export interface CardCalendarInput {
  credit_card_id: string;
  calendar_version: number;
  /** The first month whose bill may have changed; purchases dated before its period are history. */
  first_month: string;
  /** Each bill's period: purchases dated from `open_date` (inclusive) to `closing_date` (exclusive). */
  bills: Array<{ bill_id: string; open_date: string; closing_date: string }>;
}

export interface PreviousBalanceEntry {
  source_bill_id: string;
  bill_id: string;
  credit_card_id: string;
  amount: number;
  date: string;
  billed_at: string;
  title: string;
  /** False for a credit (an overpaid bill's negative remainder); default true. */
  is_expense?: boolean;
}

/** Where the entry carrying a source bill's remainder lives (also when an earlier run wrote it). */
export interface PlacedPreviousBalance {
  source_bill_id: string;
  bill_id: string;
}

export interface BillPaymentInput {
  /** Billing's id for the payment, so a repeated call returns it; omitted inside an idempotent request (its derived key replays the call). */
  payment_id?: string;
  bill_id: string;
  account_id: string;
  amount: number;
  date: string;
  title: string;
}

export interface DeleteCardTransactionsInput {
  credit_card_id: string;
  bill_ids: string[];
  calendar_version: number;
}

const billIds = Joi.array().items(anyUuid()).max(5000).default([]);
const common = { service: 'ledger' as const, internal: true, tag: 'Internal: ledger for billing' };

/** Card and bill reads and writes the ledger serves for billing: one call per bill read, never per row. */
export const ledgerForBillingRoutes = [
  defineRoute({
    ...common,
    operationId: 'searchCardTransactions',
    method: 'post',
    path: '/internal/v1/card-transactions/search',
    summary: "A card's entries of some bills as the bill shows them, each with the card's record sent",
    body: Joi.object<BillRowsInput>({
      credit_card_id: anyUuid().required(),
      bill_ids: billIds,
      closing_date: calendarDate().required(),
      credit_card: Joi.object().unknown(true).required(),
    }),
    responses: { 200: { description: 'A JSON array of whole records (`CardTransaction`), written as they are read' } },
  }),
  defineRoute({
    ...common,
    operationId: 'cardBillTotals',
    method: 'post',
    path: '/internal/v1/card-transactions/totals',
    summary: 'Totals per bill (card entries and bill payments)',
    body: Joi.object<{ bill_ids: string[] }>({ bill_ids: billIds }),
    responses: { 200: { description: '`{totals}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'cardTransactionDates',
    method: 'post',
    path: '/internal/v1/card-transactions/dates',
    summary: 'Card transactions with their dates, to re-assign after a closing-day change',
    body: Joi.object<CardDatesInput>({
      credit_card_id: anyUuid().required(),
      from: calendarDate().allow(null).default(null),
    }),
    responses: { 200: { description: '`{transactions}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'rebillCard',
    method: 'post',
    path: '/internal/v1/card-transactions/rebill',
    summary: "Moves a card's purchases to the bills of their dates under a calendar version",
    body: Joi.object<CardCalendarInput>({
      credit_card_id: anyUuid().required(),
      calendar_version: Joi.number().integer().min(0).required(),
      first_month: calendarDate().required(),
      bills: Joi.array()
        .items(
          Joi.object({
            bill_id: anyUuid().required(),
            open_date: calendarDate().required(),
            closing_date: calendarDate().required(),
          }),
        )
        .max(20_000)
        .required(),
    }),
    responses: { 200: { description: '`{moved, uncovered}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'addPreviousBalances',
    method: 'post',
    path: '/internal/v1/card-transactions/previous-balances',
    summary: "Writes the entries carrying closed bills' remainders into their next bills",
    body: Joi.object<{ entries: PreviousBalanceEntry[] }>({
      entries: Joi.array()
        .items(
          Joi.object({
            source_bill_id: anyUuid().required(),
            bill_id: anyUuid().required(),
            credit_card_id: anyUuid().required(),
            amount: positiveCents().required(),
            date: calendarDate().required(),
            billed_at: calendarDate().required(),
            title: Joi.string().max(200).required(),
            is_expense: Joi.boolean().default(true),
          }),
        )
        .max(5000)
        .required(),
    }),
    responses: { 200: { description: '`{created, placed}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'createBillPayment',
    method: 'post',
    path: '/internal/v1/bill-payments',
    summary: "Writes a bill's payment (a repeated `payment_id` returns the one written)",
    body: Joi.object<BillPaymentInput>({
      payment_id: anyUuid(),
      bill_id: anyUuid().required(),
      account_id: anyUuid().required(),
      amount: positiveCents().required(),
      date: calendarDate().required(),
      title: Joi.string().max(200).required(),
    }),
    responses: { 200: { description: 'The payment transaction' } },
  }),
  defineRoute({
    ...common,
    operationId: 'deleteCardTransactions',
    method: 'post',
    path: '/internal/v1/card-transactions/delete-of-card',
    summary: "Deletes a card's entries and the payments of its bills (card deletion)",
    body: Joi.object<DeleteCardTransactionsInput>({
      credit_card_id: anyUuid().required(),
      bill_ids: billIds,
      calendar_version: Joi.number().integer().min(0).default(0),
    }),
    responses: { 200: { description: '`{deleted}`' } },
  }),
];
