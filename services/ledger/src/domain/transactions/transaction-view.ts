import { toIsoMidnight } from '@finance/shared/calendar';
import { iso } from '@finance/shared/db/context-scope';
import type { TransactionChanged } from '@finance/shared/queue/catalogue';
import {
  type ColumnSpec,
  type TransactionViewFields,
  VIEWED_COLUMNS,
  viewNameOf,
} from '../../data-access/transaction-columns.ts';
import type { TransactionRow } from '../../data-access/transaction-repository.ts';

/** A column's value as the API shows it: calendar dates at midnight UTC, timestamps as ISO text. */
function viewValue(spec: ColumnSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (spec.type === 'date') return toIsoMidnight(value as string);
  // ISO text (`…Z`) is how `VIEW_SELECT_COLUMNS` reads a timestamp already: nothing to convert
  if (spec.type === 'timestamptz') return typeof value === 'string' && value.endsWith('Z') ? value : iso(value as Date);
  return value;
}

/** Each viewed column with its API name, computed once (a bill builds thousands of views per request). */
const VIEW_PLAN = VIEWED_COLUMNS.map(([name, spec]) => [name, viewNameOf(name), spec] as const);

type View = TransactionViewFields & { excluded_dates: string[]; payment_dates: string[]; is_remote: boolean };

/** The Transaction record of the spec: every viewed column (transaction-columns.ts), legacy fields fixed. */
export function transactionView(row: TransactionRow): View {
  // one object filled in column order: the same keys and order as building it from entries, fewer allocations
  const view: Record<string, unknown> = {};
  for (const [name, key, spec] of VIEW_PLAN) view[key] = viewValue(spec, row[name]);
  view.excluded_dates = [];
  view.payment_dates = [];
  view.is_remote = true;
  return view as View;
}

export type TransactionView = ReturnType<typeof transactionView>;

/** The slice of a row that `transaction.changed` carries. */
export function eventItem(
  row: Pick<TransactionRow, 'id' | 'date' | 'amount' | 'is_expense' | 'category_id' | 'subcategory_id' | 'type'>,
): TransactionChanged['transactions'][number] {
  return {
    id: row.id,
    date: row.date,
    amount: row.amount,
    is_expense: row.is_expense,
    category_id: row.category_id,
    subcategory_id: row.subcategory_id,
    type: row.type,
  };
}
