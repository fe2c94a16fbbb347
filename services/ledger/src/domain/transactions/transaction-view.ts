import { toIsoMidnight } from '@finance/shared/calendar';
import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { iso } from '@finance/shared/db/context-scope';
import type { TransactionChanged } from '@finance/shared/queue/catalogue';
import {
  type ColumnSpec,
  type TransactionViewFields,
  VIEW_CONSTANT_FIELDS,
  VIEWED_COLUMNS,
  viewNameOf,
} from '../../data-access/transaction-columns.ts';
import type { TransactionRow } from '../../data-access/transaction-repository.ts';

/** How a column's value reaches the API: calendar dates at midnight UTC, timestamps as ISO text, the rest as read. */
function converterOf(spec: ColumnSpec): ((value: unknown) => unknown) | null {
  if (spec.type === 'date') return (value) => toIsoMidnight(value as string);
  // ISO text (`…Z`) is how `VIEW_SELECT_COLUMNS` reads a timestamp already: nothing to convert
  if (spec.type === 'timestamptz')
    return (value) => (typeof value === 'string' && value.endsWith('Z') ? value : iso(value as Date));
  return null;
}

/** Every field of the Transaction record, in its order, at null: each view starts as a copy of it. */
const VIEW_TEMPLATE: Record<string, unknown> = {
  ...Object.fromEntries(VIEWED_COLUMNS.map(([name]) => [viewNameOf(name), null])),
  ...VIEW_CONSTANT_FIELDS,
};
const VIEW_FIELDS = VIEWED_COLUMNS.map(([name, spec]) => [name, viewNameOf(name), converterOf(spec)] as const);

/** The Transaction record of the spec: every viewed column (transaction-columns.ts), legacy fields fixed. */
export function transactionView(row: TransactionRow) {
  // a copy of one template, then stores into fields it already has: every view keeps the template's fast shape,
  // which JSON.stringify writes quickly (views built from entries and spread: 9.5 → 6.1 ms for 1,360 rows)
  const view = { ...VIEW_TEMPLATE };
  for (const [name, field, convert] of VIEW_FIELDS) {
    const value = row[name];
    view[field] = value === null || value === undefined ? null : convert ? convert(value) : value;
  }
  // each view its own arrays: the template's are shared
  view.excluded_dates = [];
  view.payment_dates = [];
  return view as TransactionViewFields & { excluded_dates: string[]; payment_dates: string[]; is_remote: boolean };
}

export type TransactionView = ReturnType<typeof transactionView>;

/** The slice of a row that `transaction.changed` carries: the parts only when it is split. */
export function eventItem(
  row: Pick<TransactionRow, 'id' | 'date' | 'amount' | 'is_expense' | 'category_id' | 'subcategory_id' | 'type'> & {
    splits?: SplitPart[] | null;
  },
): TransactionChanged['transactions'][number] {
  const item: TransactionChanged['transactions'][number] = {
    id: row.id,
    date: row.date,
    amount: row.amount,
    is_expense: row.is_expense,
    category_id: row.category_id,
    subcategory_id: row.subcategory_id,
    type: row.type,
  };
  if (row.splits?.length) item.splits = row.splits;
  return item;
}
