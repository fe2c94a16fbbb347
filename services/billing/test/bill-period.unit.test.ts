import { addDays, compare, daysBetween, lastDayOfMonth } from '@finance/shared/calendar';
import fc from 'fast-check';
import { type BillPeriod, billForDate, billPeriodForMonth } from '../src/domain/bill-period.ts';

const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

function periodsCovering(closingDay: number, dueDay: number, year: number): BillPeriod[] {
  // Months around the year so every day of it falls inside the list.
  const months: Array<[number, number]> = [
    [year - 1, 11],
    [year - 1, 12],
  ];
  for (let month = 1; month <= 12; month++) months.push([year, month]);
  months.push([year + 1, 1], [year + 1, 2], [year + 1, 3]);
  return months.map(([y, m]) => billPeriodForMonth(closingDay, dueDay, y, m));
}

describe('billPeriodForMonth', () => {
  it('when closing 10 and due 17, then the January bill closes on Jan 10 and is due on Jan 17', () => {
    expect(billPeriodForMonth(10, 17, 2026, 1)).toEqual({
      referenceMonth: '2026-01-01',
      openDate: '2025-12-10',
      closingDate: '2026-01-10',
      dueDate: '2026-01-17',
    });
  });

  it('when the closing day is not before the due day, then the bill closes in the month before', () => {
    expect(billPeriodForMonth(25, 5, 2026, 3)).toEqual({
      referenceMonth: '2026-03-01',
      openDate: '2026-01-25',
      closingDate: '2026-02-25',
      dueDate: '2026-03-05',
    });
    expect(billPeriodForMonth(10, 10, 2026, 3).closingDate).toBe('2026-02-10');
  });

  it('when the days exceed the month, then they are clamped to its end', () => {
    expect(billPeriodForMonth(31, 5, 2026, 3)).toEqual({
      referenceMonth: '2026-03-01',
      openDate: '2026-01-31',
      closingDate: '2026-02-28',
      dueDate: '2026-03-05',
    });
    expect(billPeriodForMonth(30, 31, 2028, 2)).toEqual({
      referenceMonth: '2028-02-01',
      openDate: '2028-01-30',
      closingDate: '2028-02-29',
      dueDate: '2028-02-29',
    });
    expect(billPeriodForMonth(1, 31, 2026, 4).dueDate).toBe('2026-04-30');
  });

  it('when the bill is January and it closes the month before, then the dates cross the year', () => {
    expect(billPeriodForMonth(28, 3, 2027, 1)).toEqual({
      referenceMonth: '2027-01-01',
      openDate: '2026-11-28',
      closingDate: '2026-12-28',
      dueDate: '2027-01-03',
    });
  });

  it.each([
    [0, 10],
    [32, 10],
    [10, 0],
    [10, 32],
    [1.5, 10],
  ])('when the closing day is %p and the due day %p, then it throws a RangeError', (closingDay, dueDay) => {
    expect(() => billPeriodForMonth(closingDay, dueDay, 2026, 1)).toThrow(RangeError);
    expect(() => billForDate(closingDay, dueDay, '2026-01-05')).toThrow(RangeError);
  });

  it('when the month is outside 1..12, then it throws a RangeError', () => {
    expect(() => billPeriodForMonth(10, 17, 2026, 13)).toThrow(RangeError);
  });
});

describe('billForDate', () => {
  it('when closing 10 and due 17, then purchases on the 5th and on the 10th go to different bills', () => {
    const fifth = billForDate(10, 17, '2026-01-05');
    const tenth = billForDate(10, 17, '2026-01-10');
    expect(fifth.referenceMonth).toBe('2026-01-01');
    expect(tenth.referenceMonth).toBe('2026-02-01');
    expect(tenth.openDate).toBe('2026-01-10');
    expect(billForDate(10, 17, '2026-01-09').referenceMonth).toBe('2026-01-01');
  });

  it('when the card closes after its due day, then a purchase lands two bills ahead after closing', () => {
    expect(billForDate(25, 5, '2026-01-24').referenceMonth).toBe('2026-02-01');
    expect(billForDate(25, 5, '2026-01-25').referenceMonth).toBe('2026-03-01');
  });

  it('when the closing day is clamped in February, then the clamped day already belongs to the next bill', () => {
    expect(billForDate(30, 31, '2026-02-27').referenceMonth).toBe('2026-02-01');
    expect(billForDate(30, 31, '2026-02-28').referenceMonth).toBe('2026-03-01');
    expect(billForDate(30, 31, '2026-03-01').referenceMonth).toBe('2026-03-01');
  });

  it('when the date is not a calendar date, then it throws a RangeError', () => {
    expect(() => billForDate(10, 17, '2026-02-30')).toThrow(RangeError);
    expect(() => billForDate(10, 17, 'amanhã')).toThrow(RangeError);
  });

  for (const year of [2027, 2028]) {
    it(`when any closing/due pair runs through ${year}, then the periods tile every day exactly once and billForDate agrees`, () => {
      const daysInYear = daysBetween(`${year}-01-01`, `${year + 1}-01-01`);
      const dates = Array.from({ length: daysInYear }, (_, offset) => addDays(`${year}-01-01`, offset));
      for (const closingDay of DAYS) {
        for (const dueDay of DAYS) {
          const periods = periodsCovering(closingDay, dueDay, year);
          const broken = periods.filter(
            (period, i) =>
              i > 0 &&
              (period.openDate !== periods[i - 1].closingDate ||
                compare(period.openDate, period.closingDate) >= 0 ||
                compare(period.closingDate, period.dueDate) > 0),
          );
          expect(broken).toEqual([]);
          // Walk the year once with a pointer into the periods; collect mismatches so one expect reports them.
          const mismatches: string[] = [];
          let index = 0;
          for (const date of dates) {
            while (periods[index].closingDate <= date) index++;
            const held = periods[index];
            const heldAlsoBy = [periods[index - 1], periods[index + 1]].filter(
              (p) => p.openDate <= date && date < p.closingDate,
            );
            if (!(held.openDate <= date) || heldAlsoBy.length > 0) mismatches.push(`${date} not held once`);
            const found = billForDate(closingDay, dueDay, date);
            if (
              found.referenceMonth !== held.referenceMonth ||
              found.openDate !== held.openDate ||
              found.closingDate !== held.closingDate ||
              found.dueDate !== held.dueDate
            ) {
              mismatches.push(`${date} billForDate ${found.referenceMonth}`);
            }
          }
          expect(mismatches).toEqual([]);
        }
      }
    });
  }

  it('when any pair and any date are drawn, then the bill holds the date and follows the closing/due rule', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 365 * 400 }),
        (closingDay, dueDay, offset) => {
          const date = addDays('1900-01-01', offset);
          const bill = billForDate(closingDay, dueDay, date);
          expect(compare(bill.openDate, date)).toBeLessThanOrEqual(0);
          expect(compare(date, bill.closingDate)).toBe(-1);
          const [year, month] = bill.referenceMonth.split('-').map(Number);
          expect(bill.dueDate).toBe(
            `${bill.referenceMonth.slice(0, 8)}${String(Math.min(dueDay, lastDayOfMonth(year, month))).padStart(2, '0')}`,
          );
          const [closingYear, closingMonth, closingDate] = bill.closingDate.split('-').map(Number);
          const monthsBefore = year * 12 + month - (closingYear * 12 + closingMonth);
          expect(monthsBefore).toBe(closingDay < dueDay ? 0 : 1);
          expect(closingDate).toBe(Math.min(closingDay, lastDayOfMonth(closingYear, closingMonth)));
          expect(billPeriodForMonth(closingDay, dueDay, year, month)).toEqual(bill);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
