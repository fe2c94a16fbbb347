// Calendar arithmetic on `YYYY-MM-DD` strings, done on integer day numbers so nothing depends on the server TZ.

import { now } from './clock.ts';

export type CalendarDate = string;

export const FREQUENCIES = [
  'DAILY',
  'WEEKLY',
  'BIWEEKLY',
  'MONTHLY',
  'BIMONTHLY',
  'QUARTERLY',
  'SEMIANNUAL',
  'YEARLY',
] as const;

export type Frequency = (typeof FREQUENCIES)[number];

// Spending limits spell the yearly frequency ANNUAL.
export type FrequencyInput = Frequency | 'ANNUAL';

const DAY_STEP: Partial<Record<Frequency, number>> = { DAILY: 1, WEEKLY: 7, BIWEEKLY: 14 };
const MONTH_STEP: Partial<Record<Frequency, number>> = {
  MONTHLY: 1,
  BIMONTHLY: 2,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
  YEARLY: 12,
};

const MIN_YEAR = 1;
const MAX_YEAR = 9999;

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)?)?$/;

type Parts = { year: number; month: number; day: number };

export function lastDayOfMonth(year: number, month: number): number {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`invalid year/month: ${year}-${month}`);
  }
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isValidParts(year: number, month: number, day: number): boolean {
  return (
    year >= MIN_YEAR && year <= MAX_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= lastDayOfMonth(year, month)
  );
}

/** Accepts `YYYY-MM-DD` or ISO 8601 date-time; returns the calendar date as written (an offset never shifts the day). */
export function parseCalendarDate(input: unknown): CalendarDate | null {
  if (typeof input !== 'string') return null;
  const match = ISO_PATTERN.exec(input.trim());
  if (!match) return null;
  const [, y, m, d, hh, mi, ss, oh, om] = match;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (!isValidParts(year, month, day)) return null;
  if (hh !== undefined && (Number(hh) > 23 || Number(mi) > 59 || (ss !== undefined && Number(ss) > 59))) return null;
  if (oh !== undefined && (Number(oh) > 23 || (om !== undefined && Number(om) > 59))) return null;
  return `${y}-${m}-${d}`;
}

function toParts(date: CalendarDate): Parts {
  const match = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (match) {
    const parts = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
    if (isValidParts(parts.year, parts.month, parts.day)) return parts;
  }
  throw new RangeError(`invalid calendar date: ${String(date)}`);
}

function format(year: number, month: number, day: number): CalendarDate {
  if (year < MIN_YEAR || year > MAX_YEAR) throw new RangeError(`year out of range: ${year}`);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// Days since 1970-01-01 (proleptic Gregorian), after Howard Hinnant's days_from_civil.
function toDayNumber({ year, month, day }: Parts): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function fromDayNumber(dayNumber: number): CalendarDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return format(yoe + era * 400 + (month <= 2 ? 1 : 0), month, day);
}

function assertInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be an integer: ${value}`);
}

export function toIsoMidnight(date: CalendarDate): string {
  toParts(date);
  return `${date}T00:00:00.000Z`;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  assertInteger('days', days);
  return fromDayNumber(toDayNumber(toParts(date)) + days);
}

/** Steps whole months and clamps to the month's end; `anchorDay` (default: the date's day) is the series' original day. */
export function addMonthsClamped(date: CalendarDate, months: number, anchorDay?: number): CalendarDate {
  assertInteger('months', months);
  const parts = toParts(date);
  const day = anchorDay ?? parts.day;
  if (!Number.isInteger(day) || day < 1 || day > 31) throw new RangeError(`anchorDay must be 1..31: ${anchorDay}`);
  const index = parts.year * 12 + (parts.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  if (year < MIN_YEAR || year > MAX_YEAR) throw new RangeError(`year out of range: ${year}`);
  return format(year, month, Math.min(day, lastDayOfMonth(year, month)));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return toDayNumber(toParts(to)) - toDayNumber(toParts(from));
}

export function startOfMonth(date: CalendarDate): CalendarDate {
  const { year, month } = toParts(date);
  return format(year, month, 1);
}

export function endOfMonth(date: CalendarDate): CalendarDate {
  const { year, month } = toParts(date);
  return format(year, month, lastDayOfMonth(year, month));
}

export function compare(a: CalendarDate, b: CalendarDate): -1 | 0 | 1 {
  const diff = daysBetween(b, a);
  return diff < 0 ? -1 : diff > 0 ? 1 : 0;
}

/** The UTC date at `instant` (default: the clock's now). */
export function todayUtc(instant: Date = now()): CalendarDate {
  return format(instant.getUTCFullYear(), instant.getUTCMonth() + 1, instant.getUTCDate());
}

/** Upper-case name or alias (`annual` → YEARLY); null when unknown. */
export function parseFrequency(input: unknown): Frequency | null {
  if (typeof input !== 'string') return null;
  const upper = input.trim().toUpperCase();
  if (upper === 'ANNUAL') return 'YEARLY';
  return (FREQUENCIES as readonly string[]).includes(upper) ? (upper as Frequency) : null;
}

function frequencyOf(input: FrequencyInput): Frequency {
  const frequency = parseFrequency(input);
  if (!frequency) throw new RangeError(`unknown frequency: ${String(input)}`);
  return frequency;
}

/** The index-th occurrence (0 = anchor), computed from the anchor so month steps keep the anchor's day. */
export function occurrenceDate(anchor: CalendarDate, frequency: FrequencyInput, index: number): CalendarDate {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`index must be a non-negative integer: ${index}`);
  const normalized = frequencyOf(frequency);
  const dayStep = DAY_STEP[normalized];
  if (dayStep !== undefined) return addDays(anchor, dayStep * index);
  return addMonthsClamped(anchor, MONTH_STEP[normalized]! * index);
}

/** Occurrences from `fromIndex` on, up to and including `untilInclusive`. */
export function occurrencesUntil(
  anchor: CalendarDate,
  frequency: FrequencyInput,
  untilInclusive: CalendarDate,
  fromIndex = 0,
): CalendarDate[] {
  toParts(untilInclusive);
  const dates: CalendarDate[] = [];
  for (let index = fromIndex; ; index++) {
    const date = occurrenceDate(anchor, frequency, index);
    if (compare(date, untilInclusive) > 0) return dates;
    dates.push(date);
  }
}
