// Brazilian national holidays and business days: the one home of this calendar (pure, no I/O).
import { addDays, type CalendarDate, compare } from './calendar.ts';

/** Easter Sunday of `year` (Gregorian), by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): CalendarDate {
  if (!Number.isInteger(year) || year < 1583 || year > 9999) throw new RangeError(`year out of range: ${year}`);
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Fixed-date holidays: month-day, name, first year it is a national holiday. */
const FIXED_HOLIDAYS: Array<[string, string, number]> = [
  ['01-01', 'Confraternização Universal', 1],
  ['04-21', 'Tiradentes', 1],
  ['05-01', 'Dia do Trabalho', 1],
  ['09-07', 'Independência do Brasil', 1],
  ['10-12', 'Nossa Senhora Aparecida', 1],
  ['11-02', 'Finados', 1],
  ['11-15', 'Proclamação da República', 1],
  ['11-20', 'Dia Nacional de Zumbi e da Consciência Negra', 2024], // Lei 14.759/2023
  ['12-25', 'Natal', 1],
];

/** National holidays of `year` on which banks do not open: the fixed ones, Carnival (Monday and Tuesday), Good Friday and Corpus Christi. */
export function nationalHolidays(year: number): Map<CalendarDate, string> {
  const easter = easterSunday(year);
  const holidays = new Map<CalendarDate, string>();
  for (const [monthDay, name, since] of FIXED_HOLIDAYS) {
    if (year >= since) holidays.set(`${String(year).padStart(4, '0')}-${monthDay}`, name);
  }
  holidays.set(addDays(easter, -48), 'Carnaval (segunda-feira)');
  holidays.set(addDays(easter, -47), 'Carnaval (terça-feira)');
  holidays.set(addDays(easter, -2), 'Sexta-feira Santa');
  holidays.set(addDays(easter, 60), 'Corpus Christi');
  return holidays;
}

const cache = new Map<number, Map<CalendarDate, string>>();

function holidaysOf(year: number): Map<CalendarDate, string> {
  let holidays = cache.get(year);
  if (!holidays) {
    holidays = nationalHolidays(year);
    cache.set(year, holidays);
  }
  return holidays;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: CalendarDate): number {
  const days = Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return (((days + 4) % 7) + 7) % 7;
}

export function isBusinessDay(date: CalendarDate): boolean {
  const day = weekday(date);
  if (day === 0 || day === 6) return false;
  const year = Number(date.slice(0, 4));
  if (year < 1583) return true;
  return !holidaysOf(year).has(date);
}

/** The date itself when it is a business day, else the next business day (a due date's last payable day). */
export function nextBusinessDay(date: CalendarDate): CalendarDate {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** True once `today` is past the last payable day of `dueDate` (the due date moved to the next business day). */
export function isPastDue(dueDate: CalendarDate, today: CalendarDate): boolean {
  return compare(today, nextBusinessDay(dueDate)) > 0;
}

/**
 * The latest due date already past due on `today`: every due date up to it is past due, none after it
 * (the last payable day never decreases as the due date grows).
 */
export function latestPastDueDate(today: CalendarDate): CalendarDate {
  let due = addDays(today, -1);
  while (isPastDue(due, today) === false) due = addDays(due, -1);
  return due;
}
