import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import type { TransactionChanged } from '@finance/shared/queue/catalogue';
import { splitsJsonSql } from './split-json.ts';

/**
 * A row as a set-based `returning ${changedColumns()}` gives it: raw SQL hands the bigint amount back as text;
 * `splits` holds the parts of a split row (null otherwise).
 */
export type ChangedRow = Omit<TransactionChanged['transactions'][number], 'amount' | 'splits'> & {
  amount: number | string;
  splits?: SplitPart[] | null;
};

/** The columns of ChangedRow, for the RETURNING clause of an UPDATE or INSERT on `transactions` as `alias`. */
export const changedColumns = (alias = 't') =>
  `${alias}.id, to_char(${alias}.date, 'YYYY-MM-DD') as date, ${alias}.amount::text as amount, ${alias}.is_expense, ` +
  `${alias}.category_id, ${alias}.subcategory_id, ${alias}.type, ${splitsJsonSql(alias)} as splits`;

/**
 * One `transaction.changed` item (what `eventItem` gives) built by SQL from a `returning ${changedColumns()}`
 * row as `alias`, for a statement that writes its event itself without the rows coming to Node. `json`, not
 * `jsonb`: the outbox keeps the payload as text, and building `jsonb` costs three times as much.
 */
export const changedItemSql = (alias: string) => {
  const fields =
    `'id', ${alias}.id, 'date', ${alias}.date, 'amount', ${alias}.amount::bigint, ` +
    `'is_expense', ${alias}.is_expense, 'category_id', ${alias}.category_id, ` +
    `'subcategory_id', ${alias}.subcategory_id, 'type', ${alias}.type`;
  // the parts only on a split row, as `eventItem` writes them
  return `case when ${alias}.splits is null then json_build_object(${fields}) else json_build_object(${fields}, 'splits', ${alias}.splits) end`;
};

const NO_ITEMS = '"transactions":[]';

/**
 * The JSON text of a `transaction.changed` payload written with no items, cut where its items go: `head`, the
 * items' JSON array, then `tail` is the payload with those items. A `"` inside a string value is escaped, so the
 * key can only occur as the event's own `data.transactions`.
 */
export function aroundItems(payload: unknown): { head: string; tail: string } {
  const parts = JSON.stringify(payload).split(NO_ITEMS);
  if (parts.length !== 2) throw new Error('a transaction.changed payload with no items was expected');
  return { head: `${parts[0]}"transactions":`, tail: parts[1] };
}
