import { parseCalendarDate } from '../calendar.ts';
import { badRequest } from '../errors/app-error.ts';

/**
 * Listing pages of docs/decisions.md §4, one home for every service: opaque cursors (base64url of the sort key
 * values of the last row) whose values are checked, so a forged one is 400, never a failed query. The page a
 * client asks for is `PageQuery` (shared/src/contracts/common.ts).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
const invalidCursor = () => badRequest('Cursor inválido', [{ field: 'cursor', message: 'cursor inválido' }]);

export const encodeCursor = (values: string[]): string => Buffer.from(JSON.stringify(values)).toString('base64url');

/** The `size` sort key values of a cursor; none without a cursor, 400 when it is not one of ours. */
export function decodeCursor(cursor: string | undefined, size: number): string[] | null {
  if (!cursor) return null;
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(values) && values.length === size && values.every((v) => typeof v === 'string')) return values;
  } catch {
    // falls through to the 400 below
  }
  throw invalidCursor();
}

/** The id after which a page ordered by id starts (`PageQuery.cursor`). */
export function afterIdOf(cursor: string | undefined): string | null {
  const values = decodeCursor(cursor, 1);
  if (values && !isUuid(values[0])) throw invalidCursor();
  return values?.[0] ?? null;
}

/** (date, id) of a cursor ordered by calendar date then id. */
export function afterDateIdOf(cursor: string | undefined): [string, string] | null {
  const values = decodeCursor(cursor, 2);
  if (!values) return null;
  if (parseCalendarDate(values[0]) !== values[0] || !isUuid(values[1])) throw invalidCursor();
  return [values[0], values[1]];
}

/** (createdAt, id) of a newest-first cursor. */
export function afterTimeIdOf(cursor: string | undefined): { createdAt: Date; id: string } | null {
  const values = decodeCursor(cursor, 2);
  if (!values) return null;
  const createdAt = new Date(values[0]);
  if (Number.isNaN(createdAt.getTime()) || !isUuid(values[1])) throw invalidCursor();
  return { createdAt, id: values[1] };
}

/** `limit` items out of `limit + 1` rows read, with the id cursor of the last one when more remain. */
export function idPage<T extends { id: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  return { items, next_cursor: rows.length > limit ? encodeCursor([items[items.length - 1].id]) : null };
}

/** `limit + 1` rows as the listing shape `{data, next_cursor}` of docs/decisions.md §4, each row through `view`. */
export function toPage<T extends { id: string }, V>(rows: T[], limit: number, view: (row: T) => V) {
  const { items, next_cursor } = idPage(rows, limit);
  return { data: items.map(view), next_cursor };
}
