import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A recurrence deleted whole stops growing. */
export async function endRecurrenceSeries(em: EntityManager, seriesId: string | null): Promise<void> {
  await runSql(em, 'update recurrence_series set ended = true, updated_at = now() where series_id = ?', [seriesId]);
}

/**
 * "This and next" deleted from `day`: the series creates nothing dated on or after it; members are written in
 * date order, so one dated on or after it means nothing is left to create (ended).
 */
export async function endRecurrenceSeriesBefore(
  em: EntityManager,
  seriesId: string | null,
  day: string,
): Promise<void> {
  await runSql(
    em,
    `update recurrence_series r set ends_before = least(r.ends_before, e.day), updated_at = now(),
       ended = r.ended or exists (select 1 from transactions t where t.connected_transaction_id = r.series_id and t.date >= e.day)
     from (select ?::date as day) e where r.series_id = ?`,
    [day, seriesId],
  );
}
