import { VIEW_CONSTANT_FIELDS, VIEWED_COLUMNS, viewNameOf } from './transaction-columns.ts';

/** A timestamp as the text `Date.toISOString()` gives (milliseconds truncated alike): the API's form. */
export const isoTimestampSql = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** How each viewed column reaches the record: calendar dates at midnight UTC, timestamps as ISO text, the rest as stored. */
function fieldSql(name: string, type: string): string {
  if (type === 'date') return `to_char(t.${name}, 'YYYY-MM-DD"T00:00:00.000Z"')`;
  if (type === 'timestamptz') return isoTimestampSql(`t.${name}`);
  // JSON text like the view's (a number would lose the decimals as written)
  if (type === 'numeric') return `t.${name}::text`;
  return `t.${name}`;
}

/**
 * The API's Transaction record of the row `t` as JSON text, written by PostgreSQL: the fields of `transactionView`
 * in its order, with its conversions, so a list page or a bill never parses its rows into values only to
 * serialize them again. `row_to_json` writes compact JSON and escapes strings as `JSON.stringify` does
 * (`services/ledger/test/transactions/transaction-json.test.ts` checks the two byte for byte, on generated rows).
 * `from` follows `from transactions t` (a lateral subquery PostgreSQL flattens: 10 % cheaper than a subquery per
 * row), `select` is the text.
 */
export const VIEW_JSON = {
  from: `cross join lateral (select ${[
    ...VIEWED_COLUMNS.map(([name, spec]) => `${fieldSql(name, spec.type)} as "${viewNameOf(name)}"`),
    ...Object.entries(VIEW_CONSTANT_FIELDS).map(([name, value]) => `'${JSON.stringify(value)}'::json as ${name}`),
  ].join(', ')}) transaction_record`,
  select: 'row_to_json(transaction_record)::text',
};
