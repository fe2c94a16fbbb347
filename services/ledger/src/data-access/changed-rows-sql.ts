import type { TransactionChanged } from '@finance/shared/queue/catalogue';

/** A row as a set-based `returning ${changedColumns()}` gives it: raw SQL hands the bigint amount back as text. */
export type ChangedRow = Omit<TransactionChanged['transactions'][number], 'amount'> & { amount: number | string };

/** The columns of ChangedRow, for the RETURNING clause of an UPDATE or INSERT on `transactions` as `alias`. */
export const changedColumns = (alias = 't') =>
  `${alias}.id, to_char(${alias}.date, 'YYYY-MM-DD') as date, ${alias}.amount::text as amount, ${alias}.is_expense, ` +
  `${alias}.category_id, ${alias}.subcategory_id, ${alias}.type`;

/**
 * One `transaction.changed` item (what `eventItem` gives) built by SQL from a `returning ${changedColumns()}`
 * row as `alias`, for a statement that writes its event itself without the rows coming to Node.
 */
export const changedItemSql = (alias: string) =>
  `jsonb_build_object('id', ${alias}.id, 'date', ${alias}.date, 'amount', ${alias}.amount::bigint, ` +
  `'is_expense', ${alias}.is_expense, 'category_id', ${alias}.category_id, ` +
  `'subcategory_id', ${alias}.subcategory_id, 'type', ${alias}.type)`;
