import Joi from 'joi';
import { FREQUENCIES, type Frequency } from '../../calendar.ts';
import {
  anyUuid,
  currencyCode,
  dayInput,
  errorSchema,
  idParams,
  listQuery,
  nullableTimestamp,
  ownership,
  type PageQuery,
  page,
  positiveCents,
  timestamp,
} from '../common.ts';
import { defineRoute } from '../route.ts';

export const TRANSACTION_TYPES = ['FIXED', 'RECURRENT', 'PARCELLED', 'TRANSFER'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const EDITION_TYPES = ['THIS', 'THIS_AND_NEXT', 'ALL'] as const;
export type EditionType = (typeof EDITION_TYPES)[number];
export const MAX_UPDATE_MANY_IDS = 500;

const nullableUuid = () => anyUuid().allow(null).required();
const nullableString = () => Joi.string().allow(null).required();

export const transactionSchema = Joi.object({
  id: anyUuid().required(),
  amount: positiveCents().required(),
  date: timestamp().required().description('Midnight UTC of the calendar date'),
  title: Joi.string().required(),
  description: nullableString(),
  is_expense: Joi.boolean().required(),
  paid: Joi.boolean().required(),
  paid_at: nullableTimestamp().required(),
  type: Joi.string()
    .valid(...TRANSACTION_TYPES)
    .required(),
  installments: Joi.number().integer().required(),
  installment_number: Joi.number().integer().allow(null).required(),
  frequency: Joi.string()
    .valid(...FREQUENCIES)
    .allow(null)
    .required(),
  currency: Joi.string().required(),
  account_id: nullableUuid(),
  credit_card_id: nullableUuid(),
  bill_id: nullableUuid(),
  billed_at: nullableTimestamp().required(),
  category_id: nullableUuid(),
  subcategory_id: nullableUuid(),
  competence_date: nullableTimestamp().required(),
  contact_id: nullableUuid(),
  cost_center_id: nullableUuid(),
  document_number: nullableString(),
  connected_transaction_id: nullableUuid(),
  is_bill_payment: Joi.boolean().required(),
  is_full_amount: Joi.boolean().required(),
  is_previous_balance: Joi.boolean().required(),
  show_on_balance: Joi.boolean().required(),
  is_split: Joi.boolean()
    .required()
    .description('Split into parts (`GET /v1/transactions/{id}/splits`), which count by their own categories'),
  excluded_dates: Joi.array().length(0).required().description('Always empty (legacy)'),
  payment_dates: Joi.array().length(0).required().description('Always empty (legacy)'),
  is_remote: Joi.boolean().valid(true).required().description('Always true (legacy)'),
  logo_url: nullableString(),
  merchant_cnae: nullableString(),
  merchant_cnpj: nullableString(),
  merchant_name: nullableString(),
  operation_type: nullableString(),
  reconciled_at: nullableTimestamp().required(),
  reconciled_by_user_id: nullableUuid(),
  reconciled_with_transaction_id: nullableUuid(),
  original_amount: Joi.string()
    .allow(null)
    .required()
    .description(
      'A purchase in another currency, as the bank imported it: its amount in `original_currency`, a decimal string (`"12.34"`); `amount` is what was booked in BRL. Null otherwise',
    ),
  original_currency: Joi.string().allow(null).required().description('ISO 4217 code of `original_amount`, else null'),
  ...ownership,
}).label('Transaction');

const strictBoolean = () => Joi.boolean().strict();

/** A transaction's fields as a client sends them: creation and update-many take the same, all optional on update. */
export interface TransactionFields {
  amount?: number;
  date?: string;
  is_expense?: boolean;
  title?: string;
  account_id?: string;
  credit_card_id?: string;
  category_id?: string | null;
  subcategory_id?: string | null;
  competence_date?: string | null;
  contact_id?: string | null;
  cost_center_id?: string | null;
  document_number?: string | null;
  currency?: string;
  description?: string | null;
  edition_date?: string;
  edition_type?: EditionType | null;
  frequency?: Frequency;
  installments?: number;
  is_full_amount?: boolean;
  paid?: boolean;
  show_on_balance?: boolean;
  tag_ids?: string[];
  type?: TransactionType;
}

/** Creation requires the amount, the day, the direction and the title. */
export interface CreateTransactionBody extends TransactionFields {
  amount: number;
  date: string;
  is_expense: boolean;
  title: string;
}

/** The filters of the transaction listing (each optional; dates are calendar days, inclusive). */
export interface TransactionFilters {
  start_date?: string;
  end_date?: string;
  account_id?: string;
  credit_card_id?: string;
  category_id?: string;
  is_expense?: boolean;
  paid?: boolean;
  type?: TransactionType;
}

export interface TransactionListQuery extends TransactionFilters, PageQuery {}

/** The scope of a deletion: THIS (default, also for an empty value), THIS_AND_NEXT from `edition_date`, ALL. */
export interface DeleteTransactionQuery {
  edition_type?: EditionType | '';
  edition_date?: string;
}

/** Ids as the query parser hands them: repeated (array), comma-separated (string) or a long bracket list (object). */
export type IdList = string[] | string | Record<string, unknown>;

export interface TransactionIdsQuery {
  transactions_ids?: IdList;
  'transactions_ids[]'?: IdList;
}

export interface AppendInstallmentsBody {
  quantity: number;
}

/** `paid` defaults to false and `title` to "Transferência", so both are always present. */
export interface CreateTransferBody {
  amount: number;
  date: string;
  paid: boolean;
  sent_account_id: string;
  received_account_id: string;
  description?: string | null;
  title: string;
}

/** `paid_at` defaults to the context's today. */
export interface SettleTransactionBody {
  account_id: string;
  paid_at?: string;
}

/** Fields shared by creation and update-many; update-many makes them all optional. */
const transactionFields = {
  amount: positiveCents(),
  date: dayInput(),
  is_expense: strictBoolean(),
  title: Joi.string().trim().min(1).max(255),
  account_id: anyUuid(),
  credit_card_id: anyUuid(),
  category_id: anyUuid().allow(null),
  subcategory_id: anyUuid().allow(null),
  competence_date: dayInput().allow(null).description('Business'),
  contact_id: anyUuid().allow(null).description('Business'),
  cost_center_id: anyUuid().allow(null).description('Business'),
  document_number: Joi.string().trim().max(100).allow(null).description('Business'),
  currency: currencyCode().description(
    'ISO 4217 code of a currency in circulation (lower case accepted; default BRL). Balances and totals are in BRL and count BRL entries only: an entry in another currency is listed with its own `currency` but left out of account balances, the summary, the subcategory report, the DRE and spending-limit windows (no conversion). Card bills sum every purchase as recorded.',
  ),
  description: Joi.string().max(2000).allow(null, ''),
  edition_date: dayInput(),
  edition_type: Joi.string()
    .valid(...EDITION_TYPES)
    .allow(null),
  frequency: Joi.string()
    .uppercase()
    .valid(...FREQUENCIES),
  installments: Joi.number().integer().strict().min(1).max(120),
  is_full_amount: strictBoolean(),
  paid: strictBoolean(),
  show_on_balance: strictBoolean(),
  tag_ids: Joi.array().items(anyUuid()).unique().max(50),
  type: Joi.string().valid(...TRANSACTION_TYPES),
};

const createTransactionBody = Joi.object<CreateTransactionBody>({
  ...transactionFields,
  amount: transactionFields.amount.required(),
  date: transactionFields.date.required(),
  is_expense: transactionFields.is_expense.required(),
  title: transactionFields.title.required(),
})
  .oxor('account_id', 'credit_card_id')
  .messages({ 'object.oxor': 'informe apenas um entre account_id e credit_card_id' })
  .label('CreateTransaction');

const updateManyBody = Joi.object<TransactionFields>(transactionFields).label('UpdateTransactions');

const idList = () => Joi.alternatives(Joi.array().items(Joi.string()), Joi.string(), Joi.object());

const notFound = { description: 'Unknown transaction or another context', schema: errorSchema };
const invalid = { description: 'Invalid input', schema: errorSchema };

const tag = 'Transactions';

export const transactionRoutes = [
  defineRoute({
    operationId: 'createTransaction',
    method: 'post',
    path: '/v1/transactions',
    service: 'ledger',
    tag,
    summary: 'Create a transaction (single, recurring or installments)',
    description: [
      'Exactly one of `account_id` / `credit_card_id`. Card transactions are always paid (`paid_at` = their date) and get `bill_id`/`billed_at` from billing: each installment lands in the bill its own date falls in.',
      '`type: TRANSFER` is 400: use `create-transfer`. PARCELLED needs `installments` 2..120; members are dated',
      'monthly (day clamped to the month end), numbered 1..n and linked by `connected_transaction_id` = the first',
      'member id; with `is_full_amount` the amount is split exactly (leftover cents to the first parts) and the',
      'first installment is returned. RECURRENT creates occurrences from `date` up to 12 months after today (at',
      'least the first); the horizon is 12 months after the context’s today (its `time_zone`); an hourly job extends it as each context’s day turns, each new occurrence copying the latest one, tags included;',
      'only the first takes `paid`. Business fields need a',
      'company key with an active license (403). `paid: true` sets `paid_at` to now. `date` and `competence_date`',
      'must be real days in 1900-01-01..2999-12-31 (400). A `subcategory_id` without `category_id` sets the',
      "category to the subcategory's own.",
    ].join(' '),
    body: createTransactionBody,
    example: {
      amount: 12990,
      date: '2026-01-05',
      is_expense: true,
      title: 'Mercado',
      account_id: '0190a1b2-0000-7000-8000-000000000001',
      type: 'PARCELLED',
      installments: 3,
      is_full_amount: true,
    },
    responses: {
      201: { description: 'The transaction (the first member of a series)', schema: transactionSchema },
      400: invalid,
      403: { description: 'Business field without an active company license', schema: errorSchema },
      404: {
        description: 'Account, category, subcategory, tag, contact or cost center not found',
        schema: errorSchema,
      },
    },
  }),
  defineRoute({
    operationId: 'listTransactions',
    method: 'get',
    path: '/v1/transactions',
    service: 'ledger',
    tag,
    summary: 'List the transactions of the context',
    description:
      'Ordered by date, then creation. Deleted transactions never appear. `start_date`/`end_date` are inclusive. ' +
      'An `account_id`, `credit_card_id` or `category_id` that is not visible in the context answers 404.',
    query: Joi.object<TransactionListQuery>({
      ...listQuery,
      start_date: dayInput(),
      end_date: dayInput(),
      account_id: anyUuid(),
      credit_card_id: anyUuid(),
      category_id: anyUuid(),
      is_expense: Joi.boolean(),
      paid: Joi.boolean(),
      type: Joi.string().valid(...TRANSACTION_TYPES),
    }),
    responses: { 200: { description: 'A page of transactions', schema: page(transactionSchema, 'TransactionPage') } },
  }),
  defineRoute({
    operationId: 'getTransaction',
    method: 'get',
    path: '/v1/transactions/:id',
    service: 'ledger',
    tag,
    summary: 'Get one transaction',
    params: idParams,
    responses: { 200: { description: 'The transaction', schema: transactionSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteTransaction',
    method: 'delete',
    path: '/v1/transactions/:id',
    service: 'ledger',
    tag,
    summary: 'Delete a transaction (logical), or part of its series',
    description:
      "THIS (default) deletes the given transaction; THIS_AND_NEXT the members of its series dated on or after `edition_date` (default: its date); ALL the whole series. Deleting a transfer leg deletes both legs. A recurrence deleted THIS_AND_NEXT ends at `edition_date` (the daily job still creates the occurrences before it, even beyond today's horizon); ALL ends it.",
    params: idParams,
    query: Joi.object<DeleteTransactionQuery>({
      edition_type: Joi.string()
        .valid(...EDITION_TYPES)
        .allow(''),
      edition_date: dayInput(),
    }),
    responses: {
      200: {
        description: 'How many transactions were deleted',
        schema: Joi.object({ deleted: Joi.number().integer().required() }).label('Deleted'),
      },
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'updateManyTransactions',
    method: 'put',
    path: '/v2/transactions/duplicate/update-many',
    service: 'ledger',
    tag,
    summary: 'Update several transactions and their series',
    description: [
      'Ids in `transactions_ids` (repeated or comma-separated) and/or `transactions_ids[]`, at most 500. Only the',
      'fields sent change; null clears the nullable fields (business fields need an active company license);',
      "`tag_ids` replaces the tags. On an imported entry, the `title`, `description`, category and tags sent here are the user's: a re-import of the bank's data leaves them as edited. `edition_type` THIS (default) / THIS_AND_NEXT (members dated on or after",
      '`edition_date`, default the given transaction date) / ALL. A `date` with a wider scope moves every affected',
      'member by the same number of days. `type`, `installments`, `frequency`, `is_full_amount` cannot change (400).',
      '`credit_card_id` moves entries to that card (paid at their date, each in the bill its date falls in; 404 for',
      'a card outside the context); `account_id` moves card entries off their card and bill; not both at once (400).',
      'A `subcategory_id` without `category_id` (or with `category_id: null`) moves the entries to its category. Dates as on creation (400 outside',
      '1900-01-01..2999-12-31 or not a real day). All or nothing, in one database transaction.',
    ].join(' '),
    query: Joi.object<TransactionIdsQuery>({ transactions_ids: idList(), 'transactions_ids[]': idList() }),
    body: updateManyBody,
    example: { category_id: '0190a1b2-0000-7000-8000-000000000002', edition_type: 'ALL' },
    responses: {
      200: { description: 'The updated transactions', schema: Joi.array().items(transactionSchema) },
      400: invalid,
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'duplicateTransaction',
    method: 'post',
    path: '/v1/transactions/:id/duplicate',
    service: 'ledger',
    tag,
    summary: 'Duplicate a transaction as a paid single entry',
    description:
      'FIXED, `paid: true`, same title, description, amount, date, account or card, category, subcategory, currency and business fields; no tags, no series link. A card copy is paid at its date, in its source’s bill; an account copy (even of a bill payment) belongs to no bill and is paid now.',
    params: idParams,
    responses: { 201: { description: 'The paid copy', schema: transactionSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'appendInstallments',
    method: 'post',
    path: '/v1/transactions/:id/installments',
    service: 'ledger',
    tag,
    summary: 'Append installments to an installment purchase',
    description:
      'On any member of a PARCELLED series: adds `quantity` members after the last live one, with its amount and account, monthly, numbered on from it; every member’s `installments` becomes that last number plus `quantity`. Otherwise `created: 0`.',
    params: idParams,
    body: Joi.object<AppendInstallmentsBody>({ quantity: Joi.number().integer().strict().min(1).max(120).required() }),
    example: { quantity: 2 },
    responses: {
      200: {
        description: 'How many installments were created',
        schema: Joi.object({ created: Joi.number().integer().required() }).label('InstallmentsCreated'),
      },
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'createTransfer',
    method: 'post',
    path: '/v1/transactions/create-transfer',
    service: 'ledger',
    tag,
    summary: 'Transfer between two accounts of the context',
    description:
      'Creates two TRANSFER entries linked as a series: an expense on `sent_account_id` (returned) and an income on `received_account_id`, same amount, date and `paid`. The same account twice is 400. Deleting either deletes both.',
    body: Joi.object<CreateTransferBody>({
      amount: positiveCents().required(),
      date: dayInput().required(),
      paid: strictBoolean().default(false),
      sent_account_id: anyUuid().required(),
      received_account_id: anyUuid().required(),
      description: Joi.string().max(2000).allow(null, ''),
      title: Joi.string().trim().min(1).max(255).default('Transferência'),
    }).label('CreateTransfer'),
    example: {
      amount: 50000,
      date: '2026-01-05',
      paid: true,
      sent_account_id: '0190a1b2-0000-7000-8000-000000000001',
      received_account_id: '0190a1b2-0000-7000-8000-000000000003',
    },
    responses: {
      201: { description: 'The outgoing entry', schema: transactionSchema },
      400: invalid,
      404: { description: 'An account not found', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'settleTransaction',
    method: 'post',
    path: '/v2/transactions/:id/settle',
    service: 'ledger',
    tag,
    business: true,
    summary: 'Settle a payable/receivable title',
    description:
      'Company key with an active license. Sets `paid`, `paid_at` (default today) and `account_id` on an unpaid account transaction; 409 when already paid; 400 for a card transaction, a transfer leg or a `paid_at` that is not a real day in 1900-01-01..2999-12-31.',
    params: idParams,
    body: Joi.object<SettleTransactionBody>({ account_id: anyUuid().required(), paid_at: dayInput() }).label(
      'SettleTransaction',
    ),
    example: { account_id: '0190a1b2-0000-7000-8000-000000000001', paid_at: '2026-01-10' },
    responses: {
      200: { description: 'The settled transaction', schema: transactionSchema },
      404: notFound,
      409: { description: 'Already paid', schema: errorSchema },
    },
  }),
];
