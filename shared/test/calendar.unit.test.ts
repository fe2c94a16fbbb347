import fc from 'fast-check';
import {
  addDays,
  addMonthsClamped,
  type CalendarDate,
  compare,
  daysBetween,
  endOfMonth,
  FREQUENCIES,
  type Frequency,
  lastDayOfMonth,
  occurrenceDate,
  occurrencesUntil,
  parseCalendarDate,
  parseFrequency,
  startOfMonth,
  todayUtc,
  toIsoMidnight,
} from '../src/calendar.ts';

const MONTHS_PER_STEP: Partial<Record<Frequency, number>> = {
  MONTHLY: 1,
  BIMONTHLY: 2,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
  YEARLY: 12,
};
const DAYS_PER_STEP: Partial<Record<Frequency, number>> = { DAILY: 1, WEEKLY: 7, BIWEEKLY: 14 };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const ymd = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
const partsOf = (date: CalendarDate) => date.split('-').map(Number) as [number, number, number];

// Independent oracle: the platform's UTC arithmetic (years ≥ 1970 avoid the two-digit-year quirk).
const viaDate = (date: CalendarDate, days: number) =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

const dateArb = fc
  .record({
    year: fc.integer({ min: 1970, max: 2400 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ year, month, day }) => ymd(year, month, Math.min(day, lastDayOfMonth(year, month))));
const lateDayAnchorArb = fc
  .record({
    year: fc.integer({ min: 1990, max: 2100 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 28, max: 31 }),
  })
  .filter(({ year, month, day }) => day <= lastDayOfMonth(year, month))
  .map(({ year, month, day }) => ymd(year, month, day));

describe('parseCalendarDate', () => {
  it.each([
    ['2026-01-05', '2026-01-05'],
    ['2026-01-05T00:00:00.000Z', '2026-01-05'],
    ['2026-01-05T23:59:59-03:00', '2026-01-05'],
    ['2026-01-05T00:30:00+14:00', '2026-01-05'],
    ['2026-01-05T23:00:00.123456-1200', '2026-01-05'],
    ['2026-01-05T10:00', '2026-01-05'],
    ['2026-01-05 10:00:00Z', '2026-01-05'],
    ['2028-02-29', '2028-02-29'],
    ['2000-02-29T12:00:00Z', '2000-02-29'],
  ])('when given %s, then it keeps the written calendar date', (input, expected) => {
    expect(parseCalendarDate(input)).toBe(expected);
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-01-00',
    '0000-01-01',
    '2026-1-5',
    '20260105',
    '05/01/2026',
    '2026-01-05T24:00:00Z',
    '2026-01-05T10:60:00Z',
    '2026-01-05T10:00:00+25:00',
    '2026-01-05Tabc',
    '',
    'hoje',
  ])('when given the invalid %p, then it returns null', (input) => {
    expect(parseCalendarDate(input)).toBeNull();
  });

  it('when given something other than a string, then it returns null', () => {
    expect(parseCalendarDate(20260105)).toBeNull();
    expect(parseCalendarDate(null)).toBeNull();
    expect(parseCalendarDate(new Date('2026-01-05T00:00:00Z'))).toBeNull();
  });

  it('when any valid date carries any offset or time, then the day never shifts', () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom('+', '-'),
        fc.integer({ min: 0, max: 14 }),
        fc.constantFrom(0, 30, 45),
        (date, hour, minute, sign, offsetHours, offsetMinutes) => {
          const time = `${pad(hour)}:${pad(minute)}:00.000`;
          expect(parseCalendarDate(`${date}T${time}${sign}${pad(offsetHours)}:${pad(offsetMinutes)}`)).toBe(date);
          expect(parseCalendarDate(`${date}T${time}Z`)).toBe(date);
          expect(parseCalendarDate(date)).toBe(date);
        },
      ),
    );
  });
});

describe('toIsoMidnight', () => {
  it('when given a date, then it returns midnight UTC with milliseconds', () => {
    expect(toIsoMidnight('2026-01-05')).toBe('2026-01-05T00:00:00.000Z');
  });

  it('when given an invalid date, then it throws a RangeError', () => {
    expect(() => toIsoMidnight('2026-02-30')).toThrow(RangeError);
    expect(() => toIsoMidnight('2026-01-05T00:00:00Z')).toThrow(RangeError);
  });

  it('when round-tripped through parseCalendarDate, then the date is unchanged', () => {
    fc.assert(fc.property(dateArb, (date) => expect(parseCalendarDate(toIsoMidnight(date))).toBe(date)));
  });
});

describe('lastDayOfMonth', () => {
  it.each([
    [2026, 1, 31],
    [2026, 2, 28],
    [2028, 2, 29],
    [2000, 2, 29],
    [1900, 2, 28],
    [2026, 4, 30],
    [2026, 12, 31],
  ])('when given %i-%i, then it returns %i', (year, month, expected) => {
    expect(lastDayOfMonth(year, month)).toBe(expected);
  });

  it('when the month is outside 1..12, then it throws a RangeError', () => {
    expect(() => lastDayOfMonth(2026, 0)).toThrow(RangeError);
    expect(() => lastDayOfMonth(2026, 13)).toThrow(RangeError);
  });

  it('when compared with the platform calendar, then every month agrees', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2400 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        expect(lastDayOfMonth(year, month)).toBe(new Date(Date.UTC(year, month, 0)).getUTCDate());
      }),
    );
  });
});

describe('addDays and daysBetween', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-01-05', 0, '2026-01-05'],
    ['2026-01-05', 365, '2027-01-05'],
  ])('when adding to %s %i days, then it returns %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('when adding any number of days, then it agrees with the platform UTC calendar', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: -20_000, max: 20_000 }), (date, days) => {
        fc.pre(viaDate(date, days) >= '1970-01-01');
        expect(addDays(date, days)).toBe(viaDate(date, days));
        expect(daysBetween(date, addDays(date, days))).toBe(days);
      }),
    );
  });

  it('when the days are not an integer or the result leaves years 1..9999, then it throws a RangeError', () => {
    expect(() => addDays('2026-01-05', 1.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0001-01-01', -1)).toThrow(RangeError);
  });

  it('when measuring across a leap day, then it counts it', () => {
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(daysBetween('2026-03-01', '2026-02-01')).toBe(-28);
    expect(daysBetween('2000-01-01', '2001-01-01')).toBe(366);
  });
});

describe('addMonthsClamped', () => {
  it.each([
    ['2026-01-31', 1, undefined, '2026-02-28'],
    ['2028-01-31', 1, undefined, '2028-02-29'],
    ['2026-02-28', 1, 31, '2026-03-31'],
    ['2028-02-29', 1, 31, '2028-03-31'],
    ['2026-01-31', 2, undefined, '2026-03-31'],
    ['2026-01-31', 3, undefined, '2026-04-30'],
    ['2026-03-31', -1, undefined, '2026-02-28'],
    ['2026-11-15', 2, undefined, '2027-01-15'],
    ['2026-01-15', -1, undefined, '2025-12-15'],
    ['2028-02-29', 12, undefined, '2029-02-28'],
    ['2026-02-28', 0, 30, '2026-02-28'],
  ])('when stepping %s by %i months with anchor %p, then it returns %s', (date, months, anchor, expected) => {
    expect(addMonthsClamped(date, months, anchor)).toBe(expected);
  });

  it('when the anchor day is outside 1..31 or months is fractional, then it throws a RangeError', () => {
    expect(() => addMonthsClamped('2026-01-05', 1, 0)).toThrow(RangeError);
    expect(() => addMonthsClamped('2026-01-05', 1, 32)).toThrow(RangeError);
    expect(() => addMonthsClamped('2026-01-05', 0.5)).toThrow(RangeError);
  });

  it('when stepping any date, then the day is min(anchor, month length) and the month moves exactly', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: -600, max: 600 }), fc.integer({ min: 1, max: 31 }), (date, n, anchor) => {
        const [year, month] = partsOf(date);
        const [toYear, toMonth, toDay] = partsOf(addMonthsClamped(date, n, anchor));
        expect(toYear * 12 + toMonth - (year * 12 + month)).toBe(n);
        expect(toDay).toBe(Math.min(anchor, lastDayOfMonth(toYear, toMonth)));
      }),
    );
  });
});

describe('startOfMonth, endOfMonth and compare', () => {
  it('when given a date, then it returns its month bounds', () => {
    expect(startOfMonth('2028-02-17')).toBe('2028-02-01');
    expect(endOfMonth('2028-02-17')).toBe('2028-02-29');
    expect(endOfMonth('2026-02-01')).toBe('2026-02-28');
    expect(endOfMonth('2026-12-01')).toBe('2026-12-31');
  });

  it('when comparing dates, then it orders them like days', () => {
    expect(compare('2026-01-05', '2026-01-06')).toBe(-1);
    expect(compare('2026-01-05', '2026-01-05')).toBe(0);
    expect(compare('2027-01-01', '2026-12-31')).toBe(1);
    fc.assert(
      fc.property(dateArb, dateArb, (a, b) => {
        expect(compare(a, b)).toBe(Math.sign(daysBetween(b, a)));
        expect(compare(a, b)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it('when given an invalid date, then it throws a RangeError', () => {
    expect(() => compare('2026-02-30', '2026-01-01')).toThrow(RangeError);
    expect(() => startOfMonth('not a date')).toThrow(RangeError);
  });
});

describe('todayUtc', () => {
  it('when the instant is late evening in Brazil, then it returns the UTC day', () => {
    expect(todayUtc(new Date('2026-01-05T23:30:00-03:00'))).toBe('2026-01-06');
    expect(todayUtc(new Date('2026-01-05T00:00:00.000Z'))).toBe('2026-01-05');
  });

  it('when called without an argument, then it returns the current UTC day', () => {
    const before = new Date().toISOString().slice(0, 10);
    const today = todayUtc();
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(today);
  });
});

describe('parseFrequency', () => {
  it('when given a name in any case or the ANNUAL alias, then it returns the canonical frequency', () => {
    for (const frequency of FREQUENCIES) {
      expect(parseFrequency(frequency)).toBe(frequency);
      expect(parseFrequency(frequency.toLowerCase())).toBe(frequency);
    }
    expect(parseFrequency('ANNUAL')).toBe('YEARLY');
    expect(parseFrequency('annual')).toBe('YEARLY');
  });

  it('when given an unknown value, then it returns null', () => {
    expect(parseFrequency('FORTNIGHTLY')).toBeNull();
    expect(parseFrequency('')).toBeNull();
    expect(parseFrequency(1)).toBeNull();
  });
});

describe('occurrenceDate', () => {
  it('when stepping a Jan 31 anchor monthly, then it clamps and returns to the 31st', () => {
    const dates = [0, 1, 2, 3, 4].map((i) => occurrenceDate('2026-01-31', 'MONTHLY', i));
    expect(dates).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  it('when the year is a leap year, then February gets the 29th', () => {
    expect(occurrenceDate('2028-01-30', 'MONTHLY', 1)).toBe('2028-02-29');
    expect(occurrenceDate('2028-02-29', 'YEARLY', 1)).toBe('2029-02-28');
    expect(occurrenceDate('2028-02-29', 'YEARLY', 4)).toBe('2032-02-29');
    expect(occurrenceDate('2027-08-31', 'SEMIANNUAL', 1)).toBe('2028-02-29');
  });

  it.each([
    ['DAILY', '2026-01-31', 3, '2026-02-03'],
    ['WEEKLY', '2026-01-31', 2, '2026-02-14'],
    ['BIWEEKLY', '2026-01-31', 2, '2026-02-28'],
    ['MONTHLY', '2026-01-31', 13, '2027-02-28'],
    ['BIMONTHLY', '2026-12-31', 1, '2027-02-28'],
    ['QUARTERLY', '2026-11-30', 1, '2027-02-28'],
    ['SEMIANNUAL', '2026-08-31', 1, '2027-02-28'],
    ['YEARLY', '2026-03-31', 2, '2028-03-31'],
    ['ANNUAL', '2028-02-29', 1, '2029-02-28'],
  ] as const)('when %s from %s reaches index %i, then it lands on %s', (frequency, anchor, index, expected) => {
    expect(occurrenceDate(anchor, frequency, index)).toBe(expected);
  });

  it('when the index is negative or fractional, or the frequency unknown, then it throws a RangeError', () => {
    expect(() => occurrenceDate('2026-01-05', 'MONTHLY', -1)).toThrow(RangeError);
    expect(() => occurrenceDate('2026-01-05', 'MONTHLY', 1.5)).toThrow(RangeError);
    expect(() => occurrenceDate('2026-01-05', 'HOURLY' as Frequency, 1)).toThrow(RangeError);
  });

  for (const frequency of FREQUENCIES) {
    it(`when ${frequency} starts on day 28..31, then occurrences keep the anchor day and strictly increase`, () => {
      fc.assert(
        fc.property(lateDayAnchorArb, fc.integer({ min: 1, max: 60 }), (anchor, count) => {
          const [, , anchorDay] = partsOf(anchor);
          const dates = Array.from({ length: count + 1 }, (_, i) => occurrenceDate(anchor, frequency, i));
          expect(dates[0]).toBe(anchor);
          for (let i = 1; i < dates.length; i++) {
            expect(compare(dates[i - 1], dates[i])).toBe(-1);
            const dayStep = DAYS_PER_STEP[frequency];
            if (dayStep !== undefined) {
              expect(daysBetween(dates[i - 1], dates[i])).toBe(dayStep);
              continue;
            }
            const [year, month, day] = partsOf(dates[i]);
            const [prevYear, prevMonth] = partsOf(dates[i - 1]);
            expect(year * 12 + month - (prevYear * 12 + prevMonth)).toBe(MONTHS_PER_STEP[frequency]);
            expect(day).toBe(Math.min(anchorDay, lastDayOfMonth(year, month)));
          }
        }),
      );
    });
  }

  it('when YEARLY is written as ANNUAL, then every occurrence is the same', () => {
    fc.assert(
      fc.property(lateDayAnchorArb, fc.integer({ min: 0, max: 50 }), (anchor, index) => {
        expect(occurrenceDate(anchor, 'ANNUAL', index)).toBe(occurrenceDate(anchor, 'YEARLY', index));
      }),
    );
  });
});

describe('occurrencesUntil', () => {
  it('when listing monthly from Jan 31 until mid-May, then it returns the clamped dates up to April', () => {
    expect(occurrencesUntil('2026-01-31', 'MONTHLY', '2026-05-15')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
  });

  it('when the limit falls on an occurrence, then it is included', () => {
    expect(occurrencesUntil('2026-01-05', 'WEEKLY', '2026-01-19')).toEqual(['2026-01-05', '2026-01-12', '2026-01-19']);
  });

  it('when the limit is before the anchor, then it returns nothing', () => {
    expect(occurrencesUntil('2026-01-05', 'DAILY', '2026-01-04')).toEqual([]);
  });

  it('when starting from a later index, then it continues the same series', () => {
    expect(occurrencesUntil('2026-01-31', 'MONTHLY', '2026-06-30', 3)).toEqual([
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
    ]);
  });

  it('when listing any series, then it matches occurrenceDate index by index and stops at the limit', () => {
    fc.assert(
      fc.property(
        lateDayAnchorArb,
        fc.constantFrom(...FREQUENCIES),
        fc.integer({ min: -30, max: 1500 }),
        fc.integer({ min: 0, max: 5 }),
        (anchor, frequency, span, fromIndex) => {
          const until = addDays(anchor, span);
          const dates = occurrencesUntil(anchor, frequency, until, fromIndex);
          expect(dates).toEqual(dates.map((_, i) => occurrenceDate(anchor, frequency, fromIndex + i)));
          expect(compare(occurrenceDate(anchor, frequency, fromIndex + dates.length), until)).toBe(1);
        },
      ),
    );
  });
});
