import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Locks the calendar row of each card (created at version 0 when missing), in id order, and returns the
 * versions. `share` for writers that bill purchases, `update` for the re-billing that applies a new version.
 */
export async function lockCardCalendars(
  em: EntityManager,
  cardIds: string[],
  mode: 'share' | 'update',
): Promise<Map<string, number>> {
  const ids = [...new Set(cardIds)].sort();
  if (ids.length === 0) return new Map();
  const list = `{${ids.join(',')}}`;
  await runSql(em, 'insert into card_calendars (credit_card_id) select unnest(?::uuid[]) on conflict do nothing', [
    list,
  ]);
  const rows = await runSql<{ credit_card_id: string; version: number }>(
    em,
    `select credit_card_id, version from card_calendars where credit_card_id = any(?::uuid[])
     order by credit_card_id for ${mode === 'share' ? 'share' : 'update'}`,
    [list],
  );
  return new Map(rows.map((row) => [row.credit_card_id, Number(row.version)]));
}

/** Records that the ledger now follows `version` of the card's calendar (never goes back). */
export async function advanceCardCalendar(em: EntityManager, cardId: string, version: number): Promise<void> {
  await runSql(
    em,
    'update card_calendars set version = greatest(version, ?), updated_at = now() where credit_card_id = ?',
    [version, cardId],
  );
}
