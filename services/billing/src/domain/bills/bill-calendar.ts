import { addMonthsClamped, type CalendarDate, compare, startOfMonth } from '@finance/shared/calendar';
import { billForDate, billPeriodForMonth } from '../bill-period.ts';

/** The dates a stored bill keeps; a month without a row follows the card's days. */
export interface BillDates {
  referenceMonth: CalendarDate;
  closingDate: CalendarDate;
  dueDate: CalendarDate;
}

export interface CardDays {
  closingDay: number;
  dueDay: number;
  /** Dated versions of the days, oldest first; a month before the first follows it, none: the days above. */
  calendar?: Array<{ from: string; closing_day: number; due_day: number }> | null;
}

const monthParts = (month: CalendarDate) => month.split('-').map(Number) as [number, number];

/** The card's days for bills of `month`: the latest version from that month or before. */
export function daysFor(card: CardDays, month: CalendarDate): { closingDay: number; dueDay: number } {
  const versions = card.calendar ?? [];
  let found = versions[0];
  for (const version of versions) if (compare(version.from, month) <= 0) found = version;
  return found ? { closingDay: found.closing_day, dueDay: found.due_day } : card;
}

/**
 * The versions after a change of the days from `month` on (THIS_AND_NEXT, ALL): months before keep the days
 * they had, later versions are replaced.
 */
export function calendarFrom(card: CardDays, month: CalendarDate, days: { closingDay: number; dueDay: number }) {
  const versions = card.calendar?.length
    ? card.calendar
    : [{ from: '0001-01-01', closing_day: card.closingDay, due_day: card.dueDay }];
  const kept = versions.filter((version) => compare(version.from, month) < 0);
  return [...kept, { from: month, closing_day: days.closingDay, due_day: days.dueDay }];
}

/** The dates of month `month`'s bill: the stored row when there is one, else the card's days for that month. */
export function datesOfMonth(card: CardDays, stored: Map<string, BillDates>, month: CalendarDate): BillDates {
  const found = stored.get(month);
  if (found) return found;
  const [year, monthNumber] = monthParts(month);
  const days = daysFor(card, month);
  const period = billPeriodForMonth(days.closingDay, days.dueDay, year, monthNumber);
  return { referenceMonth: period.referenceMonth, closingDate: period.closingDate, dueDate: period.dueDate };
}

/** Inclusive start of a bill: the closing date of the bill before it. */
export const openDateOf = (card: CardDays, stored: Map<string, BillDates>, month: CalendarDate): CalendarDate =>
  datesOfMonth(card, stored, addMonthsClamped(month, -1)).closingDate;

/** The month whose bill holds `date`: previous closing ≤ date < own closing (a purchase on the closing day goes on). */
export function monthForDate(card: CardDays, stored: Map<string, BillDates>, date: CalendarDate): CalendarDate {
  const days = daysFor(card, startOfMonth(date));
  let month = billForDate(days.closingDay, days.dueDay, date).referenceMonth;
  // overridden bills may shift the boundary by a month either way; the bound only guards bad data
  for (let step = 0; step < 24; step++) {
    if (compare(date, openDateOf(card, stored, month)) < 0) month = addMonthsClamped(month, -1);
    else if (compare(date, datesOfMonth(card, stored, month).closingDate) >= 0) month = addMonthsClamped(month, 1);
    else return month;
  }
  return month;
}

/**
 * The month whose bill is due on `dueDate` (an institution names the bill of an entry by its due date): a stored
 * bill due that day, else the bill of the due date's month, which is due in that month (docs/decisions.md §8).
 */
export function monthDueOn(stored: Map<string, BillDates>, dueDate: CalendarDate): CalendarDate {
  for (const bill of stored.values()) if (bill.dueDate === dueDate) return bill.referenceMonth;
  return startOfMonth(dueDate);
}

/** First and last month worth loading from storage to resolve these dates. */
export function monthWindow(dates: CalendarDate[]): { from: CalendarDate; to: CalendarDate } {
  const sorted = [...dates].sort();
  return {
    from: addMonthsClamped(startOfMonth(sorted[0]), -3),
    to: addMonthsClamped(startOfMonth(sorted[sorted.length - 1]), 3),
  };
}
