import { addDays, type CalendarDate, occurrenceDate } from '@finance/shared/calendar';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import { now, todayIn } from '@finance/shared/clock';
import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  advanceRecurrenceSeries,
  copyTemplateTags,
  FIRST_SERIES,
  latestLiveMembers,
  openSeriesDue,
  type SeriesCursor,
  setSeriesNextDates,
} from '../../data-access/recurrence-series-repository.ts';
import { insertTransactions, type NewTransaction } from '../../data-access/transaction-repository.ts';
import {
  applyPlannedBills,
  assertCalendarsCurrent,
  billCardRowsOfAnyContext,
  type CalendarVersions,
  type PlannedBills,
  withCurrentCalendars,
} from '../card-entries/card-rows.ts';
import { copyTemplateSplits, withParts } from '../splits/keep-splits.ts';
import { nextMember, pendingOccurrences, recurrenceHorizon } from './new-transaction.ts';
import { recordChangesByContext } from './record-changes.ts';

/** A series' horizon from its context's zone. */
type HorizonOf = (zone: string) => CalendarDate;

/**
 * Extends every open recurrence up to 12 months after its context's today (`at` is an instant, read in
 * each context's time zone; a calendar date acts as today for every context), a batch of series per transaction.
 * A run reads only the series due: those whose next occurrence falls within the furthest horizon of any zone
 * (each series keeps the date of its next occurrence, indexed). Idempotent: positions already written are
 * skipped by the unique (series, position) index, so a rerun or a run after days of downtime leaves exactly one
 * occurrence per date.
 */
export async function extendRecurrences(
  em: EntityManager,
  at: CalendarDate | Date = now(),
  batchSize = 200,
  billing: BillingLedgerClient | null = null,
): Promise<{ series: number; created: number }> {
  const horizonOf: HorizonOf = (zone) => recurrenceHorizon(typeof at === 'string' ? at : todayIn(zone, at));
  // no zone's day is more than a day ahead of UTC's
  const furthest = recurrenceHorizon(typeof at === 'string' ? at : addDays(todayIn('UTC', at), 1));
  let after: SeriesCursor = FIRST_SERIES;
  const totals = { series: 0, created: 0 };
  for (;;) {
    const batch = await withCurrentCalendars(async () => {
      // card occurrences get their bills from billing before the batch's transaction (docs/architecture.md rule 9)
      const seen: CalendarVersions = new Map();
      const planned: PlannedBills = new Map();
      if (billing) {
        const preview = await pendingBatch(em.fork(), furthest, after, batchSize, horizonOf, false);
        const billed = await billCardRowsOfAnyContext(billing, preview.built, seen);
        for (const row of billed) {
          if (row.credit_card_id && row.bill_id && row.billed_at) {
            planned.set(`${row.credit_card_id}:${row.date}`, {
              date: row.date,
              bill_id: row.bill_id,
              billed_at: row.billed_at,
            });
          }
        }
      }
      return em.fork().transactional(async (tx) => {
        await assertCalendarsCurrent(tx, seen);
        const { series, built, templateIdOf, horizons } = await pendingBatch(
          tx,
          furthest,
          after,
          batchSize,
          horizonOf,
          true,
        );
        if (series.length === 0) return { last: null, created: 0, size: 0 };
        const ids = series.map((row) => row.series_id);
        const rows = built.map((row) =>
          billing && row.credit_card_id ? applyPlannedBills(planned, row.credit_card_id, [row])[0] : row,
        );
        const inserted = await insertTransactions(tx, rows);
        // new occurrences carry the template's tags, like every member the series was created or edited with
        const created = rows.filter((row) => inserted.has(row.id));
        let parts = new Map<string, SplitPart[]>();
        if (inserted.size) {
          await copyTemplateTags(
            tx,
            [...inserted].map((id) => ({ id, template_id: templateIdOf.get(id) })),
          );
          // and its parts, when the latest one is split
          parts = await copyTemplateSplits(
            tx,
            created.map((row) => ({ id: row.id, amount: row.amount, template_id: templateIdOf.get(row.id) })),
          );
        }
        const advanced = await advanceRecurrenceSeries(
          tx,
          ids.map((id) => ({ id, horizon: horizons.get(id) })),
        );
        await setSeriesNextDates(
          tx,
          advanced
            .filter((row) => !row.ended)
            .map((row) => ({ id: row.series_id, date: occurrenceDate(row.anchor, row.frequency, row.next_index) })),
        );
        recordChangesByContext(tx, 'created', withParts(created, parts));
        const last = series[series.length - 1];
        return {
          last: { date: last.next_date, id: last.series_id },
          created: inserted.size,
          size: series.length,
        };
      });
    });
    totals.series += batch.size;
    totals.created += batch.created;
    if (!batch.last || batch.size < batchSize) return totals;
    after = batch.last;
  }
}

/** The series due after `after` and the occurrences each still needs (locked, skipping locked ones, when `lock`). */
async function pendingBatch(
  em: EntityManager,
  furthest: CalendarDate,
  after: SeriesCursor,
  batchSize: number,
  horizonOf: HorizonOf,
  lock: boolean,
) {
  const series = await openSeriesDue(em, furthest, after, batchSize, lock);
  const templateIdOf = new Map<string, string>();
  const horizons = new Map(series.map((s) => [s.series_id, horizonOf(s.time_zone)]));
  if (series.length === 0) return { series, built: [] as NewTransaction[], templateIdOf, horizons };
  const ids = series.map((row) => row.series_id);
  // the latest live member is the template, so edits "this and next" carry on
  const templates = await latestLiveMembers(em, ids);
  const templateOf = new Map(templates.map((row) => [row.connected_transaction_id, row]));
  const built = series.flatMap((s) => {
    const template = templateOf.get(s.series_id);
    if (!template) return [];
    const horizon = horizons.get(s.series_id)!;
    const last = s.ends_before && s.ends_before <= horizon ? addDays(s.ends_before, -1) : horizon;
    return pendingOccurrences(s.anchor, s.frequency, last, s.next_index).map((date, k) => {
      const row = nextMember(template, date, s.next_index + k);
      templateIdOf.set(row.id, template.id);
      return row;
    });
  });
  return { series, built, templateIdOf, horizons };
}
