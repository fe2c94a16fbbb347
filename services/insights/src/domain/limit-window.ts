import {
  addDays,
  type CalendarDate,
  compare,
  daysBetween,
  type FrequencyInput,
  occurrenceDate,
} from '@finance/shared/calendar';

export interface LimitWindow {
  from: CalendarDate;
  /** Inclusive last day: the day before the next window starts. */
  to: CalendarDate;
}

const DAY_STEPS: Record<string, number> = { DAILY: 1, WEEKLY: 7, BIWEEKLY: 14 };
const MONTH_STEPS: Record<string, number> = {
  MONTHLY: 1,
  BIMONTHLY: 2,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
  ANNUAL: 12,
  YEARLY: 12,
};

const LAST_DAY: CalendarDate = '9999-12-31';

/** The start of window `index`, or null past the calendar's last year (the window before it never ends). */
function startOf(start: CalendarDate, frequency: FrequencyInput, index: number): CalendarDate | null {
  try {
    return occurrenceDate(start, frequency, index);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

function windowAt(start: CalendarDate, frequency: FrequencyInput, index: number): LimitWindow {
  const next = startOf(start, frequency, index + 1);
  return { from: occurrenceDate(start, frequency, index), to: next ? addDays(next, -1) : LAST_DAY };
}

const startsBy = (start: CalendarDate, frequency: FrequencyInput, index: number, date: CalendarDate) => {
  const from = startOf(start, frequency, index);
  return from !== null && compare(from, date) <= 0;
};

/**
 * The window of a limit holding `date`: windows start at `start` and step by the frequency (month steps
 * keep the start's day, clamped). Before the first window, the first window is returned.
 */
export function windowContaining(start: CalendarDate, frequency: FrequencyInput, date: CalendarDate): LimitWindow {
  if (compare(date, start) < 0) return windowAt(start, frequency, 0);
  const dayStep = DAY_STEPS[frequency];
  if (dayStep) return windowAt(start, frequency, Math.floor(daysBetween(start, date) / dayStep));
  const monthStep = MONTH_STEPS[frequency];
  if (!monthStep) throw new RangeError(`unknown frequency: ${frequency}`);
  const [sy, sm] = start.split('-').map(Number);
  const [dy, dm] = date.split('-').map(Number);
  let index = Math.max(0, Math.floor(((dy - sy) * 12 + (dm - sm)) / monthStep));
  // the estimate is off by at most one window because of day clamping
  while (index > 0 && !startsBy(start, frequency, index, date)) index -= 1;
  while (startsBy(start, frequency, index + 1, date)) index += 1;
  return windowAt(start, frequency, index);
}

/**
 * The days of `window` whose spending counts on `today`: only entries dated up to today (a recurrence's
 * future months are no spending yet); null when the window has not started.
 */
export function countedDays(window: LimitWindow, today: CalendarDate): LimitWindow | null {
  if (compare(today, window.from) < 0) return null;
  return { from: window.from, to: compare(today, window.to) < 0 ? today : window.to };
}
