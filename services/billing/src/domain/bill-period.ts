import { type CalendarDate, lastDayOfMonth, parseCalendarDate } from '@finance/shared/calendar';

export type BillPeriod = {
  /** First day of the bill's month, `YYYY-MM-01`. */
  referenceMonth: CalendarDate;
  /** Inclusive start: the previous bill's closing date. */
  openDate: CalendarDate;
  /** Exclusive end: a purchase on this day goes to the next bill. */
  closingDate: CalendarDate;
  dueDate: CalendarDate;
};

function assertDay(name: string, day: number): void {
  if (!Number.isInteger(day) || day < 1 || day > 31) throw new RangeError(`${name} must be 1..31: ${day}`);
}

// Months are counted as year * 12 + (month - 1) so stepping across years is plain addition.
function clampedDate(monthIndex: number, day: number): CalendarDate {
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  if (year < 1 || year > 9999) throw new RangeError(`year out of range: ${year}`);
  const clamped = Math.min(day, lastDayOfMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(clamped).padStart(2, '0')}`;
}

// The rule compares the configured days, not the clamped ones, so a card follows one rule in every month.
function closingMonthOffset(closingDay: number, dueDay: number): number {
  return closingDay < dueDay ? 0 : -1;
}

function periodAt(closingDay: number, dueDay: number, monthIndex: number): BillPeriod {
  const closingMonth = monthIndex + closingMonthOffset(closingDay, dueDay);
  return {
    referenceMonth: clampedDate(monthIndex, 1),
    openDate: clampedDate(closingMonth - 1, closingDay),
    closingDate: clampedDate(closingMonth, closingDay),
    dueDate: clampedDate(monthIndex, dueDay),
  };
}

/** The bill of month (year, month): due on the due day of that month, closing on the closing day of it or of the month before. */
export function billPeriodForMonth(closingDay: number, dueDay: number, year: number, month: number): BillPeriod {
  assertDay('closingDay', closingDay);
  assertDay('dueDay', dueDay);
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`invalid year/month: ${year}-${month}`);
  }
  return periodAt(closingDay, dueDay, year * 12 + month - 1);
}

/** The bill whose period [openDate, closingDate) holds the purchase date. */
export function billForDate(closingDay: number, dueDay: number, date: CalendarDate): BillPeriod {
  assertDay('closingDay', closingDay);
  assertDay('dueDay', dueDay);
  if (parseCalendarDate(date) !== date) throw new RangeError(`invalid calendar date: ${date}`);
  const [year, month, day] = date.split('-').map(Number);
  // Before this month's closing day the purchase belongs to the bill closing this month, else to the next one.
  const closingMonth = year * 12 + month - 1 + (day < Math.min(closingDay, lastDayOfMonth(year, month)) ? 0 : 1);
  return periodAt(closingDay, dueDay, closingMonth - closingMonthOffset(closingDay, dueDay));
}
