import Joi from 'joi';
import {
  anyUuid,
  bankDay,
  cents,
  currencyCode,
  errorSchema,
  listQuery,
  ownership,
  type PageQuery,
  page,
  positiveCents,
} from '../common.ts';
import { defineRoute } from '../route.ts';
import { ACCOUNT_TYPES, type AccountType } from './accounts.ts';
import { jobSchema } from './jobs.ts';

/**
 * A connection waits for the customer at the institution (AWAITING_AUTHORISATION), then syncs (ACTIVE) until
 * its consent ends: EXPIRED or REVOKED (at the institution, or here); FAILED when the authorization did not
 * complete. Connections made by JSON imports are ACTIVE or REVOKED.
 */
export const CONNECTION_STATUSES = ['AWAITING_AUTHORISATION', 'ACTIVE', 'EXPIRED', 'REVOKED', 'FAILED'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** An account of the bank's, keyed by its `external_id`. */
export interface ImportedAccount {
  external_id: string;
  name: string;
  type: AccountType;
  subtype: string | null;
  /** Absent when the bank did not give it: the account then shows the sum of its entries, or the last balance given. */
  balance?: number | null;
  logo?: string | null;
}

/** A payment of a card bill, as the bank reports it. */
export interface ImportedBillPayment {
  external_id?: string;
  date: string;
  amount: number;
}

/** A bill of the bank's card: its due date and the payments the bank reports for it. */
export interface ImportedBill {
  due_date: string;
  payments: ImportedBillPayment[];
}

/** A credit card of the bank's, in one of the payload's (or an earlier import's) accounts. */
export interface ImportedCreditCard {
  external_id: string;
  name: string;
  /** Absent when the bank shared no account with the card: it then follows the context's default account. */
  account_external_id?: string;
  closing_day?: number | null;
  due_day: number;
  limit: number;
  /** What the bank says is still available of the limit (cents; negative when over it). */
  available_limit?: number | null;
  bills?: ImportedBill[];
}

/**
 * How far the bank says an entry went: BOOKED (effected, the default), PENDING (Open Finance
 * `TRANSACAO_PROCESSANDO`) or FORECAST (`LANCAMENTO_FUTURO`); the last two are stored unpaid until the BOOKED
 * entry arrives and becomes the same one entry.
 */
export const IMPORT_STATUSES = ['BOOKED', 'PENDING', 'FORECAST'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One installment of a purchase the bank splits (Open Finance `chargeIdentificator` + `chargeNumber`). */
export interface ImportedInstallment {
  series_key: string;
  number: number;
  total: number;
}

/** An entry of the bank's: exactly one of `account_external_id` / `credit_card_external_id`. */
export interface ImportedTransaction {
  external_id: string;
  account_external_id?: string;
  credit_card_external_id?: string;
  amount: number;
  date: string;
  is_expense: boolean;
  title: string;
  description?: string | null;
  merchant_name?: string | null;
  merchant_cnpj?: string | null;
  merchant_cnae?: string | null;
  operation_type?: string | null;
  logo_url?: string | null;
  status?: ImportStatus;
  installment?: ImportedInstallment;
  /** A purchase in another currency: its amount there (decimal string) and ISO 4217 code; `amount` is the BRL one. */
  original_amount?: string;
  original_currency?: string;
  /** Card entries: the due date of the bill the institution puts it in. */
  bill_due_date?: string;
  /** The other party's CPF (11 digits) or CNPJ (14): the holder's own makes it a movement of their own money. */
  counterparty_document?: string;
  /** Card entries: whether this is the payment of the card's bill (default: a card credit whose text says so). */
  bill_payment?: boolean;
}

/** An investment with its daily balances. */
export interface ImportedInvestment {
  investment_id: string;
  name: string;
  bank_name: string;
  type: string;
  subtype: string;
  snapshots: Array<{ date: string; balance_cents: number }>;
}

/** The body of an import after validation: every list present (empty by default). */
export interface OpenBankingImport {
  connection: { id: string; institution: string; holder_document?: string };
  accounts: ImportedAccount[];
  credit_cards: ImportedCreditCard[];
  transactions: ImportedTransaction[];
  investments: ImportedInvestment[];
}

/** The connection listing's query: a page, optionally of one status. */
export interface ConnectionListQuery extends PageQuery {
  status?: ConnectionStatus;
}

/** Installments of one purchase, as in the ledger's PARCELLED series. */
const MAX_INSTALLMENTS = 120;

const externalId = () => Joi.string().trim().min(1).max(200);
const text = (max: number) => Joi.string().trim().min(1).max(max);
const optionalText = (max: number) => Joi.string().trim().max(max).allow(null, '');
const day = () => Joi.number().integer().strict().min(1).max(31);

const importedAccount = Joi.object<ImportedAccount>({
  external_id: externalId().required(),
  name: text(100).required(),
  type: Joi.string()
    .valid(...ACCOUNT_TYPES)
    .required(),
  subtype: optionalText(100).required(),
  balance: cents()
    .min(-1e13)
    .max(1e13)
    .allow(null)
    .description(
      'Balance reported by the bank, cents; without it, the last one reported stays (a new account shows the sum of its entries)',
    ),
  logo: Joi.alternatives()
    .try(
      Joi.string().pattern(/^\d{3}$/, 'bank code'),
      Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .max(2048),
    )
    .allow(null),
}).label('ImportedAccount');

const document = () => Joi.string().pattern(/^(\d{11}|\d{14})$/, 'CPF (11 dígitos) ou CNPJ (14)');

const importedBill = Joi.object<ImportedBill>({
  due_date: bankDay().required(),
  payments: Joi.array()
    .items(
      Joi.object<ImportedBillPayment>({
        external_id: externalId(),
        date: bankDay().required(),
        amount: positiveCents().required(),
      }).label('ImportedBillPayment'),
    )
    .max(100)
    .default([]),
})
  .description('A bill of the card, by its due date, with the payments the bank reports for it')
  .label('ImportedBill');

const importedCard = Joi.object<ImportedCreditCard>({
  external_id: externalId().required(),
  name: text(100).required(),
  account_external_id: externalId().description(
    "The card's account (of this payload or an earlier import); without it, the context's default account",
  ),
  closing_day: day().allow(null),
  due_day: day().required(),
  limit: cents().min(0).max(1e13).required(),
  available_limit: cents()
    .min(-1e13)
    .max(1e13)
    .allow(null)
    .description("What the bank says is still available of the limit: the card's `available_limit` then shows it"),
  bills: Joi.array().items(importedBill).unique('due_date').max(240).default([]),
}).label('ImportedCreditCard');

const importedInstallment = Joi.object<ImportedInstallment>({
  series_key: externalId().required().description("The bank's id of the installment purchase (`chargeIdentificator`)"),
  number: Joi.number().integer().strict().min(1).max(MAX_INSTALLMENTS).required(),
  total: Joi.number().integer().strict().min(1).max(MAX_INSTALLMENTS).required(),
})
  .custom((value: ImportedInstallment, helpers) =>
    value.number > value.total ? helpers.message({ custom: '{{#label}}: number não pode passar de total' }) : value,
  )
  .description(
    'Installments of one purchase (same `series_key`) become one PARCELLED series, whatever import brings each',
  )
  .label('ImportedInstallment');

/** A positive decimal amount in another currency, dot-separated, at most 6 decimals. */
export const originalAmount = () =>
  Joi.string()
    .pattern(/^(?!0+(\.0+)?$)\d{1,15}(\.\d{1,6})?$/, 'decimal (ex.: 12.34)')
    .max(24);

/** One entry of the import: the check each entry a connection maps passes on its own before the payload's. */
export const importedTransaction = Joi.object<ImportedTransaction>({
  external_id: externalId().required(),
  account_external_id: externalId(),
  credit_card_external_id: externalId(),
  amount: positiveCents().required(),
  date: bankDay().required().description('A real day, 1900–2999; ISO 8601 keeps the day as written'),
  is_expense: Joi.boolean().strict().required(),
  title: text(255).required(),
  description: optionalText(1000),
  merchant_name: optionalText(255),
  merchant_cnpj: optionalText(32),
  merchant_cnae: optionalText(32),
  operation_type: optionalText(64),
  logo_url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2048)
    .allow(null),
  status: Joi.string()
    .valid(...IMPORT_STATUSES)
    .description(
      'BOOKED (default): effected. PENDING (Open Finance `TRANSACAO_PROCESSANDO`) and FORECAST (`LANCAMENTO_FUTURO`) are stored unpaid; the BOOKED entry that follows (same `external_id`, or another one matching by the import matching rule) becomes that same entry, paid',
    ),
  installment: importedInstallment,
  original_amount: originalAmount().description(
    'A purchase in another currency: its amount in `original_currency`, a decimal string with a dot (`"12.34"`); `amount` stays the BRL amount booked',
  ),
  original_currency: currencyCode().description('ISO 4217 code of `original_amount`'),
  bill_due_date: bankDay().description(
    "Card entries only: the due date of the card bill the institution puts the entry in (instead of the bill of the entry's date)",
  ),
  counterparty_document: document().description(
    "The other party's CPF or CNPJ (digits): equal to `connection.holder_document`, the entry moves the holder's own money (a transfer)",
  ),
  bill_payment: Joi.boolean()
    .strict()
    .description(
      'Card credits only: `true`, the payment of the card\'s bill (joined with the account debit that made it); `false`, a credit of the bill (a refund, a cashback). Without it, a card credit whose text says it pays the bill ("Pagamento recebido", "PGTO FATURA") is that bill\'s payment',
    ),
})
  .xor('account_external_id', 'credit_card_external_id')
  // checked in code, not with joi's `.and()`/`.with()`: the OpenAPI document stays one flat schema
  .custom((value: ImportedTransaction, helpers) => {
    if ((value.original_amount === undefined) !== (value.original_currency === undefined)) {
      return helpers.message({ custom: '{{#label}}: original_amount e original_currency vêm juntos' });
    }
    if (value.bill_due_date !== undefined && value.credit_card_external_id === undefined) {
      return helpers.message({ custom: '{{#label}}: bill_due_date só vale para transações de cartão' });
    }
    if (value.bill_payment === true && (value.credit_card_external_id === undefined || value.is_expense)) {
      return helpers.message({ custom: '{{#label}}: bill_payment vale para créditos de cartão' });
    }
    return value;
  })
  .label('ImportedTransaction');

const importedInvestment = Joi.object<ImportedInvestment>({
  investment_id: externalId().required(),
  name: text(255).required(),
  bank_name: text(255).required(),
  type: text(64).required(),
  subtype: text(64).required(),
  snapshots: Joi.array()
    .items(Joi.object({ date: bankDay().required(), balance_cents: cents().min(-1e13).max(1e13).required() }))
    .unique('date')
    .max(3660)
    .required(),
}).label('ImportedInvestment');

/** The payload of docs/decisions.md §9, keyed by the bank's ids; each list is unique by its key. */
export const importBody = Joi.object<OpenBankingImport>({
  connection: Joi.object({
    id: externalId().required(),
    institution: text(200).required(),
    holder_document: document().description("The account holder's CPF or CNPJ (digits)"),
  }).required(),
  accounts: Joi.array().items(importedAccount).unique('external_id').max(1000).default([]),
  credit_cards: Joi.array().items(importedCard).unique('external_id').max(1000).default([]),
  transactions: Joi.array().items(importedTransaction).max(50_000).default([]),
  investments: Joi.array().items(importedInvestment).unique('investment_id').max(1000).default([]),
}).label('OpenBankingImport');

export const connectionSchema = Joi.object({
  id: anyUuid().required(),
  external_id: Joi.string()
    .required()
    .description("The bank's connection id, as sent in `connection.id` (a connection made here: its own id)"),
  institution: Joi.string().required(),
  institution_id: Joi.string()
    .allow(null)
    .required()
    .description('The institution of `GET /v1/open-banking/institutions`; null for a connection made by a JSON import'),
  status: Joi.string()
    .valid(...CONNECTION_STATUSES)
    .required(),
  authorization_url: Joi.string()
    .allow(null)
    .required()
    .description(
      'While AWAITING_AUTHORISATION: the institution page the customer opens to authorise (valid for minutes)',
    ),
  connect_token: Joi.string()
    .allow(null)
    .description(
      'Pluggy only, in the answers that start an authorization: the token the front end opens Pluggy Connect with',
    ),
  consent_expires_at: Joi.string().isoDate().allow(null).required(),
  last_synced_at: Joi.string().isoDate().allow(null).required().description('When the last sync finished'),
  last_sync_error: Joi.string().allow(null).required().description('Why the last sync failed, in Portuguese'),
  last_sync_skipped_count: Joi.number()
    .integer()
    .required()
    .description(
      "How many of the institution's records the last sync left out because they break the Open Finance documents (the rest was imported)",
    ),
  last_sync_skipped: Joi.array()
    .items(
      Joi.object({
        record: Joi.string().required().description('Which record (its kind and id)'),
        reason: Joi.string().required().description('Why, in Portuguese'),
      }).label('SkippedRecord'),
    )
    .required()
    .description('The first 50 of them, each with its reason'),
  last_import_job_id: anyUuid()
    .allow(null)
    .required()
    .description('The import job of the last sync (`GET /v1/jobs/{id}`)'),
  revoked_at: Joi.string().isoDate().allow(null).required(),
  ...ownership,
}).label('Connection');

const jobAnswer = Joi.object({ job: jobSchema.required() }).label('ImportAccepted');

export const openBankingRoutes = [
  defineRoute({
    operationId: 'importOpenBanking',
    method: 'post',
    path: '/v1/open-banking/imports',
    service: 'ledger',
    tag: 'Open banking',
    summary: 'Import accounts, cards, transactions and investments of a bank connection',
    description: [
      "Body up to 10 MiB. Keyed by the bank's ids (`connection.id` and each `external_id` / `investment_id`, scoped to the context): importing again updates and never duplicates; rows that did not change are left untouched.",
      'Runs on the import worker. The answer is **200** `{job}` with the finished job when it finishes within 5 s (`state` `completed` with the counts in `result`, or `failed` with the reason in `error`), else **202** `{job}` to poll with `GET /v1/jobs/{id}`.',
      'Accounts: `type` one of the account types, `balance` is what the account then shows; a known `logo` bank code resolves like on accounts, while none or a code we do not know gives the generic bank logo (the import is not refused for a code missing from our list); the first account of a context becomes its default. Cards: billing owns them; without `closing_day` a card gets `needs_closing_date_review: true` and a provisional closing day 7 days before its due day (a later import with `closing_day` sets it and clears the flag); `due_day` and `limit` always follow the bank.',
      'Transactions: exactly one of `account_external_id` / `credit_card_external_id`, naming an account or card of this payload or of an earlier import of the same connection; they go through the import pipeline shared with statement files (docs/decisions.md §9): `status` BOOKED (default) is paid (`paid_at` = the date), PENDING and FORECAST are stored unpaid and the BOOKED entry that follows (same `external_id`, or another one by the matching rule: same account or card, amount and direction, dates at most 5 days apart) becomes that same entry; an entry another source (a statement file) already brought is not created again (counted in `duplicates`); `installment` members with one `series_key` form one PARCELLED series, joined by later imports; `original_amount`/`original_currency` stay on a foreign purchase booked at its BRL `amount`; card transactions go to the bill of their date, or to the bill due on `bill_due_date`; enabled categorization rules categorize the new ones; an effected entry reconciles the unpaid manual forecast it matches when `auto_reconcile_enabled`, else counts in `reconciliation_suggestions`; a re-import never changes a category or tags, and keeps the `title` and `description` the user edited (the ledger records which fields a user changed), while the bank’s data updates the other fields (amount, date, direction and merchant data are the bank’s, even after a user edit). Accounts, cards and transactions the user deleted stay deleted (their transactions are skipped and counted).',
      'Investments go to insights with their daily snapshots; the job completes only once they are stored there.',
      'A payload that names unknown accounts or cards fails the job with the reason and writes nothing. A connection whose consent was revoked is 409.',
    ].join('\n\n'),
    bodyLimit: '10mb',
    body: importBody,
    example: {
      connection: { id: 'conn-123', institution: 'Banco Exemplo' },
      accounts: [
        {
          external_id: 'acc-1',
          name: 'Conta corrente',
          type: 'PERSONAL_BANK',
          subtype: 'CHECKING_ACCOUNT',
          balance: 250000,
          logo: '341',
        },
      ],
      credit_cards: [
        { external_id: 'card-1', name: 'Cartão Gold', account_external_id: 'acc-1', due_day: 10, limit: 500000 },
      ],
      transactions: [
        {
          external_id: 'tx-1',
          account_external_id: 'acc-1',
          amount: 4590,
          date: '2026-01-05',
          is_expense: true,
          title: 'Padaria',
          merchant_name: 'Padaria São João',
          merchant_cnpj: '12.345.678/0001-90',
          merchant_cnae: '1091-1/02',
          operation_type: 'PIX',
        },
      ],
      investments: [
        {
          investment_id: 'inv-1',
          name: 'Tesouro Selic 2029',
          bank_name: 'Banco Exemplo',
          type: 'FIXED_INCOME',
          subtype: 'TREASURY',
          snapshots: [{ date: '2026-01-05', balance_cents: 1000000 }],
        },
      ],
    },
    responses: {
      200: { description: 'The job, finished within 5 s', schema: jobAnswer },
      202: { description: 'The job, still running', schema: jobAnswer },
      409: { description: "The connection's consent was revoked", schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'listOpenBankingConnections',
    method: 'get',
    path: '/v1/open-banking/connections',
    service: 'ledger',
    tag: 'Open banking',
    summary: 'List the bank connections of the context',
    description:
      'Ordered by creation. `status` is `REVOKED` once the consent was revoked (after the last account of the connection was deleted), else `ACTIVE`; filter with `?status=`.',
    query: Joi.object<ConnectionListQuery>({
      ...listQuery,
      status: Joi.string().valid(...CONNECTION_STATUSES),
    }),
    responses: { 200: { description: 'A page of connections', schema: page(connectionSchema, 'ConnectionPage') } },
  }),
];
