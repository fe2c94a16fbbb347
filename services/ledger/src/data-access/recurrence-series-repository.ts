import type { CalendarDate, Frequency } from '@finance/shared/calendar';
import { DEFAULT_TIME_ZONE } from '@finance/shared/clock';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SELECT_COLUMNS, selectTransactions } from './transaction-repository.ts';

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

/** Starts a recurrence: its anchor date, frequency and the index of the next occurrence to create. */
export async function insertRecurrenceSeries(
  em: EntityManager,
  seriesId: string,
  anchor: string,
  frequency: string | null,
  nextIndex: number,
): Promise<void> {
  await runSql(
    em,
    'insert into recurrence_series (series_id, anchor, frequency, next_index) values (?, ?::date, ?, ?)',
    [seriesId, anchor, frequency, nextIndex],
  );
}

/** An open recurrence with the zone of its context. */
export interface SeriesRow {
  series_id: string;
  anchor: CalendarDate;
  frequency: Frequency;
  next_index: number;
  /** Exclusive end set by "delete this and next"; null while the series runs on. */
  ends_before: CalendarDate | null;
  /** IANA zone of the series' context: its "today" moves the horizon. */
  time_zone: string;
}

/** The open series after `after` by id, `batchSize` at most (locked, skipping locked ones, when `lock`). */
export async function openSeriesAfter(em: EntityManager, after: string, batchSize: number, lock: boolean) {
  return runSql<SeriesRow>(
    em,
    `select r.series_id, to_char(r.anchor, 'YYYY-MM-DD') as anchor, r.frequency, r.next_index,
            to_char(r.ends_before, 'YYYY-MM-DD') as ends_before,
            coalesce((select c.time_zone from transactions t
                        join personal_configs c on c.context_id = t.context_id
                      where t.id = r.series_id), ?) as time_zone
     from recurrence_series r
     where not r.ended and r.series_id > ? order by r.series_id limit ?${lock ? ' for update of r skip locked' : ''}`,
    [DEFAULT_TIME_ZONE, after, batchSize],
  );
}

/** The latest live member of each series (the template of its next occurrences). */
export async function latestLiveMembers(em: EntityManager, seriesIds: string[]) {
  return selectTransactions(
    em,
    `select distinct on (t.connected_transaction_id) ${SELECT_COLUMNS} from transactions t
     where t.connected_transaction_id in (?) and t.deleted_at is null
     order by t.connected_transaction_id, t.series_index desc`,
    [seriesIds],
  );
}

/** New occurrences carry their template's tags (pairs of new id and template id). */
export async function copyTemplateTags(
  em: EntityManager,
  pairs: Array<{ id: string; template_id: string | undefined }>,
) {
  await runSql(
    em,
    `insert into transaction_tags (transaction_id, tag_id)
     select p.id, g.tag_id from jsonb_to_recordset(?::jsonb) as p(id uuid, template_id uuid)
     join transaction_tags g on g.transaction_id = p.template_id on conflict do nothing`,
    [JSON.stringify(pairs)],
  );
}

/**
 * After a batch: each series' next index follows its highest member, and it ends when its end falls within
 * its horizon or no live member is left.
 */
export async function advanceRecurrenceSeries(
  em: EntityManager,
  series: Array<{ id: string; horizon: string | undefined }>,
): Promise<void> {
  await runSql(
    em,
    `update recurrence_series r set updated_at = now(),
       next_index = greatest(r.next_index, coalesce(m.next, 0)),
       ended = coalesce(r.ends_before <= m.horizon, false)
         or not exists (select 1 from transactions t where t.connected_transaction_id = r.series_id and t.deleted_at is null)
     from (select s.id, s.horizon, (select max(series_index) + 1 from transactions where connected_transaction_id = s.id) as next
           from jsonb_to_recordset(?::jsonb) as s(id uuid, horizon date)) m
     where r.series_id = m.id`,
    [JSON.stringify(series)],
  );
}

/** Later occurrences of moved recurrences follow the move: anchor and end shift by each series' days. */
export async function shiftRecurrenceSeries(
  em: EntityManager,
  moved: Array<{ id: string | null; delta: number }>,
): Promise<void> {
  await runSql(
    em,
    `update recurrence_series r set anchor = r.anchor + s.delta, ends_before = r.ends_before + s.delta, updated_at = now()
     from jsonb_to_recordset(?::jsonb) as s(id uuid, delta int) where r.series_id = s.id`,
    [JSON.stringify(moved)],
  );
}
