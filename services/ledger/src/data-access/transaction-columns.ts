import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';

/**
 * The one definition of a stored transaction (`ledger.transactions`): every column with its SQL type,
 * nullability and default. The row types, the bulk insert's column list, the blank row's defaults, the
 * columns a series member inherits and the API view derive from it;
 * `services/ledger/test/transactions/transaction-columns.test.ts` checks it against `information_schema.columns`
 * after the migrations (which stay as they landed: history).
 *
 * `role`: `entry` columns are written by every insert (`NewTransaction`) and read back (`TransactionRow`);
 * `stamp` columns are set by the statement (`now()`) and read back; `internal` ones are the ledger's own
 * bookkeeping (deletion mark, fields the user edited, generated match keys), in no row type.
 * `inherit`: a new member of a series copies it from its template. `view: false`: not in the API's Transaction.
 */
export const TRANSACTION_COLUMNS = {
  id: { type: 'uuid', nullable: false, role: 'entry' },
  user_id: { type: 'uuid', nullable: false, role: 'entry', inherit: true },
  profile_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  amount: { type: 'bigint', nullable: false, role: 'entry', inherit: true },
  date: { type: 'date', nullable: false, role: 'entry', inherit: true },
  title: { type: 'text', nullable: false, role: 'entry', inherit: true },
  description: { type: 'text', nullable: true, role: 'entry', inherit: true },
  is_expense: { type: 'boolean', nullable: false, role: 'entry', inherit: true },
  paid: { type: 'boolean', nullable: false, default: false, role: 'entry' },
  paid_at: { type: 'timestamptz', nullable: true, role: 'entry' },
  type: { type: 'text', nullable: false, role: 'entry', inherit: true },
  installments: { type: 'integer', nullable: false, default: 1, role: 'entry', inherit: true },
  installment_number: { type: 'integer', nullable: true, role: 'entry', inherit: true },
  frequency: { type: 'text', nullable: true, role: 'entry', inherit: true },
  currency: { type: 'text', nullable: false, default: 'BRL', role: 'entry', inherit: true },
  account_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  credit_card_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  bill_id: { type: 'uuid', nullable: true, role: 'entry' },
  billed_at: { type: 'timestamptz', nullable: true, role: 'entry' },
  category_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  subcategory_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  competence_date: { type: 'date', nullable: true, role: 'entry', inherit: true },
  contact_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  cost_center_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  document_number: { type: 'text', nullable: true, role: 'entry', inherit: true },
  connected_transaction_id: { type: 'uuid', nullable: true, role: 'entry', inherit: true },
  is_bill_payment: { type: 'boolean', nullable: false, default: false, role: 'entry' },
  is_full_amount: { type: 'boolean', nullable: false, default: false, role: 'entry', inherit: true },
  is_previous_balance: { type: 'boolean', nullable: false, default: false, role: 'entry' },
  show_on_balance: { type: 'boolean', nullable: false, default: true, role: 'entry', inherit: true },
  logo_url: { type: 'text', nullable: true, role: 'entry' },
  merchant_cnae: { type: 'text', nullable: true, role: 'entry' },
  merchant_cnpj: { type: 'text', nullable: true, role: 'entry' },
  merchant_name: { type: 'text', nullable: true, role: 'entry' },
  operation_type: { type: 'text', nullable: true, role: 'entry' },
  reconciled_at: { type: 'timestamptz', nullable: true, role: 'entry' },
  reconciled_by_user_id: { type: 'uuid', nullable: true, role: 'entry' },
  reconciled_with_transaction_id: { type: 'uuid', nullable: true, role: 'entry' },
  original_amount: { type: 'numeric', nullable: true, role: 'entry' },
  original_currency: { type: 'text', nullable: true, role: 'entry' },
  // set only by the writes of its parts (transaction_splits), never inherited: a new member copies the parts too
  is_split: { type: 'boolean', nullable: false, default: false, role: 'entry' },
  series_index: { type: 'integer', nullable: true, role: 'entry', view: false },
  external_id: { type: 'text', nullable: true, role: 'entry', view: false },
  connection_id: { type: 'uuid', nullable: true, role: 'entry', view: false },
  deleted_at: { type: 'timestamptz', nullable: true, role: 'internal' },
  created_at: { type: 'timestamptz', nullable: false, role: 'stamp' },
  updated_at: { type: 'timestamptz', nullable: false, role: 'stamp' },
  // the context's key (shared/src/db/context-scope.ts), generated from profile_id/user_id
  context_id: { type: 'uuid', nullable: true, role: 'internal', generated: true },
  merchant_name_normalized: { type: 'text', nullable: true, role: 'internal', generated: true },
  merchant_cnpj_digits: { type: 'text', nullable: true, role: 'internal', generated: true },
  user_edited_fields: { type: 'text[]', nullable: false, default: [], role: 'internal' },
  // the user undid an automatic match of the import (docs/decisions.md §9): no rule links the entry again
  unlinked_at: { type: 'timestamptz', nullable: true, role: 'internal' },
} as const satisfies Record<string, ColumnSpec>;

/** What a column holds once read: calendar dates as `YYYY-MM-DD` text, money as a number of cents. */
interface SqlValues {
  uuid: string;
  text: string;
  bigint: number;
  /** Exact decimals (an amount in another currency) stay text, as PostgreSQL writes them. */
  numeric: string;
  integer: number;
  boolean: boolean;
  date: string;
  timestamptz: Date;
  'text[]': string[];
}

export interface ColumnSpec {
  type: keyof SqlValues;
  nullable: boolean;
  /** The column's SQL default, as the value a blank row gets. */
  default?: boolean | number | string | readonly string[];
  role: 'entry' | 'stamp' | 'internal';
  inherit?: true;
  view?: false;
  /** Computed by the database (`generated always as … stored`). */
  generated?: true;
}

type Columns = typeof TRANSACTION_COLUMNS;
export type TransactionColumn = keyof Columns;
type NamesOf<Role> = { [K in TransactionColumn]: Columns[K]['role'] extends Role ? K : never }[TransactionColumn];
type Nullable<C> = C extends { nullable: true } ? null : never;
type ReadValue<C extends ColumnSpec> = SqlValues[C['type']] | Nullable<C>;
/** Timestamps are written as ISO text (they travel in JSON). */
type WrittenValue<C extends ColumnSpec> =
  | (C['type'] extends 'timestamptz' ? string : SqlValues[C['type']])
  | Nullable<C>;

/**
 * A stored transaction as SQL returns it: dates as `YYYY-MM-DD`, money as numbers, and the parts of a split one
 * (`SELECT_COLUMNS` reads them; null when it is not split).
 */
export type TransactionRow = { [K in NamesOf<'entry' | 'stamp'>]: ReadValue<Columns[K]> } & {
  splits: SplitPart[] | null;
};

/** A transaction to insert: every `entry` column, timestamps as ISO text. */
export type NewTransaction = { [K in NamesOf<'entry'>]: WrittenValue<Columns[K]> };

/** Entry columns a new row must be given (no null, no default). */
export type RequiredEntryColumn = {
  [K in NamesOf<'entry'>]: Columns[K] extends { nullable: false }
    ? Columns[K] extends { default: unknown }
      ? never
      : K
    : never;
}[NamesOf<'entry'>];

const entries = Object.entries(TRANSACTION_COLUMNS) as Array<[TransactionColumn, ColumnSpec]>;

/** The columns every insert writes, in order, with their SQL types. */
export const ENTRY_COLUMNS = entries.filter(([, spec]) => spec.role === 'entry') as Array<
  [NamesOf<'entry'>, ColumnSpec]
>;

/** The blank row's values: each column's default, else null (required columns have neither). */
export const ENTRY_DEFAULTS = Object.fromEntries(
  ENTRY_COLUMNS.filter(([, spec]) => spec.nullable || spec.default !== undefined).map(([name, spec]) => [
    name,
    spec.default ?? null,
  ]),
) as Omit<NewTransaction, RequiredEntryColumn>;

/** Columns a new series member copies from its template. */
export const INHERITED_COLUMNS = entries.filter(([, spec]) => spec.inherit).map(([name]) => name) as Array<
  NamesOf<'entry'>
>;

type ViewedColumn = {
  [K in NamesOf<'entry' | 'stamp'>]: Columns[K] extends { view: false } ? never : K;
}[NamesOf<'entry' | 'stamp'>];
/** The API names the stamps in camelCase (the spec's Transaction record); every other field keeps its column's name. */
type ViewName<K> = K extends 'created_at' ? 'createdAt' : K extends 'updated_at' ? 'updatedAt' : K;
export const viewNameOf = (name: string): string =>
  name === 'created_at' ? 'createdAt' : name === 'updated_at' ? 'updatedAt' : name;
/** Dates and timestamps reach the API as ISO text. */
type ViewValue<C extends ColumnSpec> = C['type'] extends 'date'
  ? string | Nullable<C>
  : C['type'] extends 'timestamptz'
    ? string | null
    : ReadValue<C>;

/** The stored fields of the API's Transaction record, derived from the columns. */
export type TransactionViewFields = { [K in ViewedColumn as ViewName<K>]: ViewValue<Columns[K]> };

/** The columns the API shows, with their specs. */
export const VIEWED_COLUMNS = entries.filter(
  ([, spec]) => (spec.role === 'entry' || spec.role === 'stamp') && spec.view !== false,
) as Array<[ViewedColumn, ColumnSpec]>;

/** The Transaction record's fields no column holds: legacy fields the API keeps, always the same, after the columns. */
export const VIEW_CONSTANT_FIELDS = { excluded_dates: [], payment_dates: [], is_remote: true } as const;
