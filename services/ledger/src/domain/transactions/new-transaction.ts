import { addMonthsClamped, type CalendarDate, compare, type Frequency, occurrenceDate } from '@finance/shared/calendar';
import { newId } from '@finance/shared/db/base-entity';
import { ENTRY_DEFAULTS, INHERITED_COLUMNS, type RequiredEntryColumn } from '../../data-access/transaction-columns.ts';
import type { NewTransaction, TransactionRow } from '../../data-access/transaction-repository.ts';

/** A row with every column set: defaults of the record (`ENTRY_DEFAULTS`) unless given. */
export function blankTransaction(
  fields: Pick<NewTransaction, Exclude<RequiredEntryColumn, 'id'> | 'profile_id'> & Partial<NewTransaction>,
): NewTransaction {
  return { ...ENTRY_DEFAULTS, id: newId(), ...fields };
}

/** Occurrences stop 12 months after today (a rolling horizon the daily job moves forward). */
export const recurrenceHorizon = (today: CalendarDate): CalendarDate => addMonthsClamped(today, 12);

/** Upper bound of occurrences written in one go, so a very old anchor cannot make one huge statement. */
export const MAX_OCCURRENCES_PER_RUN = 5000;

/** Dates of a recurrence from `fromIndex` up to the horizon, at most MAX_OCCURRENCES_PER_RUN. */
export function pendingOccurrences(
  anchor: CalendarDate,
  frequency: Frequency,
  horizon: CalendarDate,
  fromIndex: number,
): CalendarDate[] {
  const dates: CalendarDate[] = [];
  // stops at the cap instead of walking a decades-old daily anchor to the end
  for (let index = fromIndex; dates.length < MAX_OCCURRENCES_PER_RUN; index++) {
    const date = occurrenceDate(anchor, frequency, index);
    if (compare(date, horizon) > 0) break;
    dates.push(date);
  }
  return dates;
}

/** A copy of a series member as the next one: same values, new id, date and position, unpaid. */
export function nextMember(
  template: TransactionRow,
  date: CalendarDate,
  seriesIndex: number,
  extra: Partial<NewTransaction> = {},
): NewTransaction {
  return blankTransaction({
    ...pick(template),
    id: newId(),
    date,
    series_index: seriesIndex,
    paid: false,
    paid_at: null,
    ...extra,
  });
}

/** The values a new series member inherits from its template (`inherit` in the column definition). */
function pick(row: TransactionRow) {
  return Object.fromEntries(INHERITED_COLUMNS.map((name) => [name, row[name]])) as Pick<
    NewTransaction,
    Exclude<RequiredEntryColumn, 'id'> | 'profile_id'
  > &
    Partial<NewTransaction>;
}
