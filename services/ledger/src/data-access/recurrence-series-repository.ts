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
    `update recurrence_series r set ends_before = least(r.ends_before, e.day), next_date = null, updated_at = now(),
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
  /** The date of its next occurrence to create, `-infinity` when an edit asked the next run to work it out. */
  next_date: string;
  series_id: string;
  anchor: CalendarDate;
  frequency: Frequency;
  next_index: number;
  /** Exclusive end set by "delete this and next"; null while the series runs on. */
  ends_before: CalendarDate | null;
  /** IANA zone of the series' context: its "today" moves the horizon. */
  time_zone: string;
}

/** Where a run of the horizon goes on from: the due date and id of the last series it took. */
export interface SeriesCursor {
  date: string;
  id: string;
}

export const FIRST_SERIES: SeriesCursor = { date: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

const DUE = `coalesce(r.next_date, '-infinity'::date)`;

/**
 * The open series whose next occurrence falls on or before `horizon`, after `cursor` in (due date, id) order:
 * `batchSize` at most (locked, skipping locked ones, when `lock`), through the index of due dates.
 */
export async function openSeriesDue(
  em: EntityManager,
  horizon: CalendarDate,
  cursor: SeriesCursor,
  batchSize: number,
  lock: boolean,
) {
  return runSql<SeriesRow>(
    em,
    `select r.series_id, to_char(r.anchor, 'YYYY-MM-DD') as anchor, r.frequency, r.next_index,
            to_char(r.ends_before, 'YYYY-MM-DD') as ends_before, ${DUE}::text as next_date,
            coalesce((select c.time_zone from transactions t
                        join personal_configs c on c.context_id = t.context_id
                      where t.id = r.series_id), ?) as time_zone
     from recurrence_series r
     where not r.ended and ${DUE} <= ?::date and (${DUE}, r.series_id) > (?::date, ?::uuid)
     order by ${DUE}, r.series_id limit ?${lock ? ' for update of r skip locked' : ''}`,
    [DEFAULT_TIME_ZONE, horizon, cursor.date, cursor.id, batchSize],
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
     select p.id, g.tag_id from json_to_recordset(?::json) as p(id uuid, template_id uuid)
     join transaction_tags g on g.transaction_id = p.template_id on conflict do nothing`,
    [JSON.stringify(pairs)],
  );
}

/**
 * After a batch: each series' next index follows its highest member, and it ends when its end falls within
 * its horizon or no live member is left. Each with what its next date follows from.
 */
export async function advanceRecurrenceSeries(
  em: EntityManager,
  series: Array<{ id: string; horizon: string | undefined }>,
) {
  return runSql<{ series_id: string; anchor: CalendarDate; frequency: Frequency; next_index: number; ended: boolean }>(
    em,
    `update recurrence_series r set updated_at = now(),
       next_index = greatest(r.next_index, coalesce(m.next, 0)),
       ended = coalesce(r.ends_before <= m.horizon, false)
         or not exists (select 1 from transactions t where t.connected_transaction_id = r.series_id and t.deleted_at is null)
     from (select s.id, s.horizon, (select max(series_index) + 1 from transactions where connected_transaction_id = s.id) as next
           from json_to_recordset(?::json) as s(id uuid, horizon date)) m
     where r.series_id = m.id
     returning r.series_id, to_char(r.anchor, 'YYYY-MM-DD') as anchor, r.frequency, r.next_index, r.ended`,
    [JSON.stringify(series)],
  );
}

/** Each series' next occurrence date, where the next run of the horizon finds it. */
export async function setSeriesNextDates(em: EntityManager, dates: Array<{ id: string; date: CalendarDate }>) {
  if (dates.length === 0) return;
  await runSql(
    em,
    `update recurrence_series r set next_date = d.date from json_to_recordset(?::json) as d(id uuid, date date)
     where r.series_id = d.id`,
    [JSON.stringify(dates)],
  );
}

/** Later occurrences of moved recurrences follow the move: anchor and end shift by each series' days. */
export async function shiftRecurrenceSeries(
  em: EntityManager,
  moved: Array<{ id: string | null; delta: number }>,
): Promise<void> {
  await runSql(
    em,
    `update recurrence_series r set anchor = r.anchor + s.delta, ends_before = r.ends_before + s.delta, next_date = null,
       updated_at = now()
     from json_to_recordset(?::json) as s(id uuid, delta int) where r.series_id = s.id`,
    [JSON.stringify(moved)],
  );
}
