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

/** The Transaction record of the spec: every viewed column (transaction-columns.ts), legacy fields fixed. */
export function transactionView(row: TransactionRow) {
  // built from entries, then spread: V8 keeps such objects in fast mode (a keyed store per column would not,
  // and JSON.stringify of thousands of dictionary-mode rows is markedly slower)
  const fields = Object.fromEntries(
    VIEWED_COLUMNS.map(([name, spec]) => [viewNameOf(name), viewValue(spec, row[name])]),
  ) as TransactionViewFields;
  return { ...fields, excluded_dates: [] as string[], payment_dates: [] as string[], is_remote: true };
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
