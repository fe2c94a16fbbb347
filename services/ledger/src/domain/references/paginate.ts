import type { PageQuery } from '@finance/shared/contracts/common';
import { encodeCursor } from '@finance/shared/db/context-scope';
import { afterIdOf as afterCursorId } from '@finance/shared/db/pagination';

export { afterDateIdOf, isUuid } from '@finance/shared/db/pagination';

/** The id a listing cursor carries; a well-formed cursor holding no uuid is 400, not a failed query. */
export const afterIdOf = (page: PageQuery): string | null => afterCursorId(page.cursor);

/** Turns `limit + 1` rows into the listing shape `{data, next_cursor}` of docs/decisions.md §4. */
export function toPage<T extends { id: string }, V>(rows: T[], limit: number, view: (row: T) => V) {
  const items = rows.slice(0, limit);
  return {
    data: items.map(view),
    next_cursor: rows.length > limit ? encodeCursor([items[items.length - 1].id]) : null,
  };
}
