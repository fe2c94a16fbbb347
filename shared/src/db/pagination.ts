import { parseCalendarDate } from '../calendar.ts';
import { badRequest } from '../errors/app-error.ts';
import { decodeCursor, encodeCursor } from './context-scope.ts';

/** Listing pages of docs/decisions.md §4: opaque cursors whose values are checked, so a forged one is 400, never a failed query. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
const invalidCursor = () => badRequest('Cursor inválido', [{ field: 'cursor', message: 'cursor inválido' }]);

/** The id after which a page ordered by id starts. */
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
