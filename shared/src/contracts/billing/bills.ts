import Joi from 'joi';
import {
  anyUuid,
  bankDay,
  cents,
  dayInput,
  errorSchema,
  idParams,
  nullableTimestamp,
  ownership,
  timestamp,
} from '../common.ts';
import { accountSchema } from '../ledger/accounts.ts';
import { categorySchema, subcategorySchema } from '../ledger/categories.ts';
import { tagSchema } from '../ledger/tags.ts';
import { transactionSchema } from '../ledger/transactions.ts';
import { defineRoute } from '../route.ts';
import { creditCardSchema } from './credit-cards.ts';

export const BILL_STATUSES = ['FUTURE', 'OPEN', 'CLOSED', 'OVERDUE', 'PAID'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];
export const EDITION_TYPES = ['THIS', 'THIS_AND_NEXT', 'ALL'] as const;
export type EditionType = (typeof EDITION_TYPES)[number];

export const billSchema = Joi.object({
  id: anyUuid().required(),
  credit_card_id: anyUuid().required(),
  closing_date: timestamp().required(),
  expiring_date: timestamp().required().description('Due date'),
  value: cents().required().description('Purchases − credits, previous balance included, payments excluded'),
  paid: cents().required().description('Bill payments made to it'),
  balance: cents().required().description('`value` − `paid`'),
  costs: cents().required().description('Fees, interest and IOF in the bill'),
  status: Joi.string()
    .valid(...BILL_STATUSES)
    .required(),
  isPending: Joi.boolean().required().description('Closed with balance > 0'),
  ...ownership,
}).label('Bill');

/** A real day (2026-02-30 is 400, not a server error), `YYYY-MM-DD` or ISO 8601. */
const realDate = () => dayInput();

/** Card dates billing can place: a bill needs its neighbour months inside the calendar's years 1–9999. */
export const BILLABLE_DATES = { from: '0002-01-01', to: '9998-12-31' } as const;
export const NOT_BILLABLE = `deve estar entre ${BILLABLE_DATES.from} e ${BILLABLE_DATES.to}`;
export const isBillable = (date: string) => date >= BILLABLE_DATES.from && date <= BILLABLE_DATES.to;

/** A real day that names a bill's month. */
const billableDate = () =>
  realDate().custom((value: string, helpers) =>
    isBillable(value) ? value : helpers.message({ custom: `{{#label}} ${NOT_BILLABLE}` }),
  );

const reconcileSummary = Joi.object({
  amount: cents(),
  date: timestamp(),
  id: anyUuid(),
  is_expense: Joi.boolean(),
  paid: Joi.boolean(),
  title: Joi.string(),
  total: cents(),
  account_id: anyUuid().allow(null),
  credit_card_id: anyUuid().allow(null),
  currency: Joi.string(),
  merchant_name: Joi.string().allow(null),
  reconciled_at: nullableTimestamp(),
  reconciled_by_user_id: anyUuid().allow(null),
}).label('ReconcileSummary');

/** Every Transaction field plus the bill extras: the records it refers to, in full. */
export const expandedTransactionSchema = transactionSchema
  .keys({
    account: accountSchema.allow(null).required(),
    category: categorySchema.allow(null).required(),
    subcategory: subcategorySchema.allow(null).required(),
    credit_card: creditCardSchema.required(),
    tags: Joi.array().items(tagSchema).required(),
    total: cents().required().description('Purchase total for installments, else the amount'),
    projected_date: timestamp().required().description('Date it is billed'),
    projected_installment: Joi.number().integer().allow(null).required(),
    reconciled_with: reconcileSummary.allow(null).required(),
    reconciles: Joi.array().items(reconcileSummary).required(),
  })
  .label('ExpandedTransaction');

/** A bill's month: any day of it (absent: the context's current month). */
export interface BillMonthQuery {
  date?: string;
}

/** Filters of a bill's transactions; `category_ids` arrive as a list of uuids however they were sent. */
export interface BillTransactionsQuery extends BillMonthQuery {
  start_date?: string;
  end_date?: string;
  is_expense?: boolean;
  category_ids?: string[];
  'category_ids[]'?: string[];
  amount?: number;
}

/** A change of a card's closing (and due) day; `edition_type` defaults to THIS. */
export interface ClosingDateChange {
  closing_day: number;
  edition_date?: string;
  bill_id?: string;
  edition_type: EditionType;
  expiring_day?: number;
}

/** A bill payment: `amount` defaults to the balance, `date` to the context's today. */
export interface PayBillBody {
  account_id: string;
  amount?: number;
  date?: string;
}

const cardParams = Joi.object<{ cardId: string }>({ cardId: anyUuid().required() });
const monthQuery = {
  date: billableDate().description(
    `Reference month: any day of it; default the context’s current month (its time zone); from ${BILLABLE_DATES.from} to ${BILLABLE_DATES.to}`,
  ),
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** One value, a repeated parameter or a comma-separated list of uuids. */
const uuidList = () =>
  Joi.any()
    .custom((value, helpers) => {
      // the query parser turns lists of more than 20 items into objects keyed by index
      const listed = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [value];
      const items = listed
        .flatMap((item) => String(item).split(','))
        .map((item) => item.trim())
        .filter(Boolean);
      if (items.length > 500 || items.some((item) => !UUID.test(item))) {
        return helpers.message({ custom: '{{#label}} deve ser uma lista de uuids (até 500)' });
      }
      return items;
    })
    .meta({
      openapi: {
        type: 'array',
        items: { type: 'string', description: 'A uuid or comma-separated uuids' },
        description: 'Uuids, as a repeated parameter or comma-separated (up to 500)',
      },
    });

const notFound = { description: 'Unknown card/bill or another context', schema: errorSchema };

export const billRoutes = [
  defineRoute({
    operationId: 'showBillByCard',
    method: 'get',
    path: '/v2/bills/show-by-card/:cardId',
    service: 'billing',
    tag: 'Bills',
    summary: 'Bill of a card for a month, with its transactions',
    description:
      'The bill of month M is due on the due day of M; it closes on the closing day of M when closing day < due day, else of M−1, and holds purchases from the previous closing date (inclusive) to its own (exclusive). Bills are created as needed and keep their id. `status`: FUTURE (not yet open), OPEN (before closing), CLOSED, OVERDUE (past due, unpaid), PAID (closed or non-empty with balance ≤ 0), by the context’s today in its `time_zone` (`/v2/personal-config`, default America/Sao_Paulo: OVERDUE from local midnight after the due date). A due date on a Saturday, Sunday or national holiday (fixed ones, Carnival Monday and Tuesday, Good Friday, Corpus Christi) is payable until the next business day: the bill is OVERDUE only after that day.',
    params: cardParams,
    query: Joi.object<BillMonthQuery>(monthQuery),
    responses: {
      200: {
        description: 'The bill and its transactions',
        schema: Joi.object({ bill: billSchema, transactions: Joi.array().items(expandedTransactionSchema) }).label(
          'BillWithTransactions',
        ),
      },
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'listBillTransactions',
    method: 'get',
    path: '/v2/bills/show-by-card/:cardId/transactions',
    service: 'billing',
    tag: 'Bills',
    summary: 'Transactions of a card bill, filtered',
    description:
      '`start_date`/`end_date` (inclusive) narrow the bill by transaction date; `is_expense=true` keeps purchases, `false` credits; `category_ids` (repeated, comma-separated or `category_ids[]`); `amount` in reais (decimal, e.g. `12.5`) matches the amount exactly.',
    params: cardParams,
    query: Joi.object<BillTransactionsQuery>({
      ...monthQuery,
      start_date: realDate(),
      end_date: realDate(),
      is_expense: Joi.boolean(),
      category_ids: uuidList(),
      'category_ids[]': uuidList(),
      amount: Joi.number().min(0).precision(2).description('Reais'),
    }),
    responses: {
      200: {
        description: 'Transactions',
        schema: Joi.object({ transactions: Joi.array().items(expandedTransactionSchema) }).label('BillTransactions'),
      },
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'changeBillClosingDate',
    method: 'patch',
    path: '/v2/bills/closing-date/by-card/:cardId',
    service: 'billing',
    tag: 'Bills',
    summary: "Change a card's closing (and due) day",
    description:
      "A closed bill (closing date on or before the context’s today, in its time zone) is history: its dates and transactions never change. The reference bill is `bill_id`'s, else `edition_date`'s month, else the open bill (the one whose period holds today). THIS changes only it (409 when it is closed); THIS_AND_NEXT it, every later bill and the card's days, starting at the open bill when the reference is closed; ALL every bill not closed and the card's days. The card's days change as a dated version, so earlier months keep their dates whether or not they were ever read. Transactions from the first changed bill on move to the bill their date now falls in. `updated` counts bills whose closing or due date changed. Without `expiring_day`, THIS keeps the bill's own due day and the wider scopes use the card's; `expiring_day` is ignored for open-banking cards.",
    params: cardParams,
    body: Joi.object<ClosingDateChange>({
      closing_day: Joi.number().integer().min(1).max(31).strict().required(),
      edition_date: billableDate(),
      bill_id: anyUuid(),
      edition_type: Joi.string()
        .valid(...EDITION_TYPES)
        .default('THIS'),
      expiring_day: Joi.number().integer().min(1).max(31).strict(),
    }).label('ChangeClosingDate'),
    example: { closing_day: 5, edition_type: 'THIS_AND_NEXT', edition_date: '2026-03-01', expiring_day: 12 },
    responses: {
      200: {
        description: 'Bills changed and the reference bill',
        schema: Joi.object({ updated: Joi.number().integer(), bill: billSchema }).label('ClosingDateChanged'),
      },
      404: notFound,
      409: { description: 'THIS on a closed bill, or the card changed under a concurrent write', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'payBill',
    method: 'post',
    path: '/v2/bills/:id/pay',
    service: 'billing',
    tag: 'Bills',
    summary: 'Pay a bill from an account',
    description:
      "Creates a paid account expense with `is_bill_payment: true` and the bill's `bill_id`. Payments of one bill are serialized: while one is being written (or the rollover is carrying the bill) another is 409 `Já há um pagamento ou fechamento desta fatura em andamento; consulte a fatura` with `Retry-After` (seconds) and writes nothing; that 409 is never kept as an `Idempotency-Key`'s answer, so a retry with the same key runs again. `amount` defaults to the balance (409 `Fatura sem saldo a pagar` when that is ≤ 0). An explicit `amount` may exceed the balance: the excess is a credit the rollover carries into the next bill, at most the card's `limit` above the balance (R$ 1.000.000,00 for an unlimited card), else 400 on `amount`. When the rollover already carried this bill's remainder, 409 names the bill that now holds it (pay that one). `date` (`YYYY-MM-DD` or ISO 8601, a real day in 1900–2999, the calendar day as written is kept) defaults to the context’s today (its time zone).",
    params: idParams,
    body: Joi.object<PayBillBody>({
      account_id: anyUuid().required(),
      amount: cents().min(1).max(1e13),
      date: bankDay(),
    }).label('PayBill'),
    example: { account_id: '0190a0b0-0000-7000-8000-000000000001', amount: 125000, date: '2026-03-17' },
    responses: {
      200: {
        description: 'The bill after payment and the payment transaction',
        schema: Joi.object({ bill: billSchema, payment: transactionSchema }).label('BillPaid'),
      },
      400: { description: 'Invalid input, or an amount above the balance by more than the bound', schema: errorSchema },
      404: notFound,
      409: {
        description:
          'Nothing owed, a payment of this bill in progress (with `Retry-After`), or its remainder carried to another bill',
        schema: errorSchema,
        headers: ['Retry-After'],
      },
    },
  }),
];
