import { addDays, type CalendarDate, startOfMonth } from '@finance/shared/calendar';
import { estimatedReadyDate, lastDayOnOrBefore, type YieldReport } from '../yield-periods.ts';

/**
 * Earliest day any period of the report compares, given the context's snapshot days (ascending, non-empty):
 * the same choice of days as computeYieldReport, so snapshots before it are not needed.
 */
export function yieldWindowStart(days: CalendarDate[]): CalendarDate {
  const latest = days[days.length - 1];
  const ends = [
    days.at(-3) ?? days.at(-2),
    lastDayOnOrBefore(days, addDays(latest, -7)),
    lastDayOnOrBefore(days, addDays(startOfMonth(latest), -1)),
  ];
  return ends.reduce<CalendarDate>((earliest, day) => (day && day < earliest ? day : earliest), latest);
}

/**
 * A report computed from the window (each position's snapshot before it included) differs from one over the whole
 * history only in the fields that count days: they come from the full list of snapshot days.
 */
export function withSnapshotDays(report: YieldReport, days: CalendarDate[]): YieldReport {
  if (days.length === 0) return report;
  return {
    ...report,
    snapshot_days: days.length,
    first_snapshot_date: days[0],
    estimated_ready_date: estimatedReadyDate(days, days[0]),
  };
}
