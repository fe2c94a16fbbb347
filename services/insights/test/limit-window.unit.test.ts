import { addDays, compare, FREQUENCIES, lastDayOfMonth, occurrenceDate } from '@finance/shared/calendar';
import fc from 'fast-check';
import { windowContaining } from '../src/domain/limit-window.ts';

describe('windowContaining', () => {
  it('when monthly from the 31st, then windows clamp and keep the start day', () => {
    expect(windowContaining('2026-01-31', 'MONTHLY', '2026-02-28')).toEqual({ from: '2026-02-28', to: '2026-03-30' });
    expect(windowContaining('2026-01-31', 'MONTHLY', '2026-03-31')).toEqual({ from: '2026-03-31', to: '2026-04-29' });
  });

  it('when weekly, then a window is seven days', () => {
    expect(windowContaining('2026-01-01', 'WEEKLY', '2026-01-15')).toEqual({ from: '2026-01-15', to: '2026-01-21' });
  });

  it('when annual, then the window is one year', () => {
    expect(windowContaining('2025-03-01', 'ANNUAL', '2026-02-28')).toEqual({ from: '2025-03-01', to: '2026-02-28' });
  });

  it('when the next window would start past year 9999, then the window ends on 9999-12-31', () => {
    expect(windowContaining('9999-06-01', 'ANNUAL', '2026-11-21')).toEqual({ from: '9999-06-01', to: '9999-12-31' });
    expect(windowContaining('9999-12-28', 'WEEKLY', '2026-11-21')).toEqual({ from: '9999-12-28', to: '9999-12-31' });
    expect(windowContaining('2026-01-15', 'MONTHLY', '9999-12-20')).toEqual({ from: '9999-12-15', to: '9999-12-31' });
  });

  it('when the date is before the start, then the first window is returned', () => {
    expect(windowContaining('2026-05-01', 'MONTHLY', '2026-01-10')).toEqual({ from: '2026-05-01', to: '2026-05-31' });
  });

  it('when random, then the window holds the date and the next window starts the day after it ends', () => {
    const day = fc.integer({ min: 0, max: 4000 }).map((n) => addDays('2020-01-01', n));
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom(...FREQUENCIES, 'ANNUAL' as const),
        (start, offset, frequency) => {
          const date = addDays(start, offset);
          const window = windowContaining(start, frequency, date);
          expect(compare(window.from, date)).toBeLessThanOrEqual(0);
          expect(compare(date, window.to)).toBeLessThanOrEqual(0);
          expect(windowContaining(start, frequency, addDays(window.to, 1)).from).toBe(addDays(window.to, 1));
        },
      ),
      { numRuns: 300 },
    );
  });
  it('when annual starts on Feb 29, then later windows start on Feb 28 and return to Feb 29 in leap years', () => {
    expect(windowContaining('2028-02-29', 'ANNUAL', '2029-06-01')).toEqual({ from: '2029-02-28', to: '2030-02-27' });
    expect(windowContaining('2028-02-29', 'YEARLY', '2032-03-01')).toEqual({ from: '2032-02-29', to: '2033-02-27' });
  });

  it('when the date is the last day of a window, then that window is returned, and the next day starts the next', () => {
    expect(windowContaining('2026-01-10', 'BIWEEKLY', '2026-01-23')).toEqual({ from: '2026-01-10', to: '2026-01-23' });
    expect(windowContaining('2026-01-10', 'BIWEEKLY', '2026-01-24')).toEqual({ from: '2026-01-24', to: '2026-02-06' });
    expect(windowContaining('2026-01-10', 'QUARTERLY', '2026-04-09')).toEqual({ from: '2026-01-10', to: '2026-04-09' });
  });

  it('when the frequency is unknown, then it throws a RangeError', () => {
    expect(() => windowContaining('2026-01-01', 'HOURLY' as 'DAILY', '2026-02-01')).toThrow(RangeError);
  });

  it('when a limit starts on day 28..31, then every window starts on an occurrence and they tile without gaps', () => {
    const start = fc
      .record({
        year: fc.integer({ min: 2020, max: 2030 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 28, max: 31 }),
      })
      .filter(({ year, month, day }) => day <= lastDayOfMonth(year, month))
      .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${day}`);
    fc.assert(
      fc.property(
        start,
        fc.constantFrom(...FREQUENCIES, 'ANNUAL' as const),
        fc.integer({ min: 1, max: 24 }),
        (from, frequency, count) => {
          let window = windowContaining(from, frequency, from);
          for (let index = 0; index < count; index++) {
            expect(window.from).toBe(occurrenceDate(from, frequency, index));
            expect(windowContaining(from, frequency, window.to)).toEqual(window);
            const next = windowContaining(from, frequency, addDays(window.to, 1));
            expect(next.from).toBe(addDays(window.to, 1));
            window = next;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
