import fc from 'fast-check';
import { addDays } from '../src/calendar.ts';
import { canonicalTimeZone, isValidTimeZone, now, setNow, todayIn } from '../src/clock.ts';
import { easterSunday, isBusinessDay, isPastDue, nationalHolidays, nextBusinessDay, weekday } from '../src/holidays.ts';

// Western (Gregorian) Easter Sundays 2000–2100, month-day, as listed by python-dateutil's `easter()`
// (Claus Tøndering's method, EASTER_WESTERN), an implementation independent of ours; spot-checked
// against published dates (2000-04-23, 2008-03-23, 2024-03-31, 2025-04-20, 2026-04-05, 2038-04-25, 2099-04-12).
const KNOWN_EASTERS: Record<number, string> = {
  2000: '04-23',
  2001: '04-15',
  2002: '03-31',
  2003: '04-20',
  2004: '04-11',
  2005: '03-27',
  2006: '04-16',
  2007: '04-08',
  2008: '03-23',
  2009: '04-12',
  2010: '04-04',
  2011: '04-24',
  2012: '04-08',
  2013: '03-31',
  2014: '04-20',
  2015: '04-05',
  2016: '03-27',
  2017: '04-16',
  2018: '04-01',
  2019: '04-21',
  2020: '04-12',
  2021: '04-04',
  2022: '04-17',
  2023: '04-09',
  2024: '03-31',
  2025: '04-20',
  2026: '04-05',
  2027: '03-28',
  2028: '04-16',
  2029: '04-01',
  2030: '04-21',
  2031: '04-13',
  2032: '03-28',
  2033: '04-17',
  2034: '04-09',
  2035: '03-25',
  2036: '04-13',
  2037: '04-05',
  2038: '04-25',
  2039: '04-10',
  2040: '04-01',
  2041: '04-21',
  2042: '04-06',
  2043: '03-29',
  2044: '04-17',
  2045: '04-09',
  2046: '03-25',
  2047: '04-14',
  2048: '04-05',
  2049: '04-18',
  2050: '04-10',
  2051: '04-02',
  2052: '04-21',
  2053: '04-06',
  2054: '03-29',
  2055: '04-18',
  2056: '04-02',
  2057: '04-22',
  2058: '04-14',
  2059: '03-30',
  2060: '04-18',
  2061: '04-10',
  2062: '03-26',
  2063: '04-15',
  2064: '04-06',
  2065: '03-29',
  2066: '04-11',
  2067: '04-03',
  2068: '04-22',
  2069: '04-14',
  2070: '03-30',
  2071: '04-19',
  2072: '04-10',
  2073: '03-26',
  2074: '04-15',
  2075: '04-07',
  2076: '04-19',
  2077: '04-11',
  2078: '04-03',
  2079: '04-23',
  2080: '04-07',
  2081: '03-30',
  2082: '04-19',
  2083: '04-04',
  2084: '03-26',
  2085: '04-15',
  2086: '03-31',
  2087: '04-20',
  2088: '04-11',
  2089: '04-03',
  2090: '04-16',
  2091: '04-08',
  2092: '03-30',
  2093: '04-12',
  2094: '04-04',
  2095: '04-24',
  2096: '04-15',
  2097: '03-31',
  2098: '04-20',
  2099: '04-12',
  2100: '03-28',
};

const year = fc.integer({ min: 2000, max: 2100 });

describe('Brazilian holiday calendar', () => {
  it('when computing Easter for any year 2000–2100, then it matches the known table', () => {
    fc.assert(
      fc.property(year, (y) => {
        expect(easterSunday(y)).toBe(`${y}-${KNOWN_EASTERS[y]}`);
        expect(weekday(easterSunday(y))).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('when listing a year, then Carnival, Good Friday and Corpus Christi sit at their distance from the known Easter', () => {
    fc.assert(
      fc.property(year, (y) => {
        const easter = `${y}-${KNOWN_EASTERS[y]}`;
        const holidays = nationalHolidays(y);
        expect(holidays.get(addDays(easter, -48))).toBe('Carnaval (segunda-feira)');
        expect(holidays.get(addDays(easter, -47))).toBe('Carnaval (terça-feira)');
        expect(holidays.get(addDays(easter, -2))).toBe('Sexta-feira Santa');
        expect(holidays.get(addDays(easter, 60))).toBe('Corpus Christi');
        expect(weekday(addDays(easter, -47))).toBe(2);
        expect(weekday(addDays(easter, -2))).toBe(5);
        expect(weekday(addDays(easter, 60))).toBe(4);
      }),
    );
  });

  it('when a due date is a Saturday, a Sunday, 1 January, Carnival Tuesday or Good Friday, then it is not past due until after the next business day', () => {
    const nonBusinessDue = year.chain((y) => {
      const easter = `${y}-${KNOWN_EASTERS[y]}`;
      const jan1 = `${y}-01-01`;
      return fc.oneof(
        fc.constant(jan1),
        fc.constant(addDays(easter, -47)),
        fc.constant(addDays(easter, -2)),
        fc.integer({ min: 0, max: 51 }).map((week) => {
          const saturday = addDays(jan1, (6 - weekday(jan1) + 7) % 7);
          return addDays(saturday, week * 7);
        }),
        fc.integer({ min: 0, max: 51 }).map((week) => addDays(addDays(jan1, (7 - weekday(jan1)) % 7), week * 7)),
      );
    });
    fc.assert(
      fc.property(nonBusinessDue, (due) => {
        expect(isBusinessDay(due)).toBe(false);
        const payable = nextBusinessDay(due);
        expect(isBusinessDay(payable)).toBe(true);
        expect(payable > due).toBe(true);
        for (let day = due; day <= payable; day = addDays(day, 1)) {
          expect(isPastDue(due, day)).toBe(false);
          if (day !== due && day !== payable) expect(isBusinessDay(day)).toBe(false);
        }
        expect(isPastDue(due, addDays(payable, 1))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('when a due date is a business day, then it is past due the day after', () => {
    expect(isPastDue('2026-03-17', '2026-03-17')).toBe(false);
    expect(isPastDue('2026-03-17', '2026-03-18')).toBe(true);
    // Carnival 2026: 16 and 17 February; Ash Wednesday is a business day.
    expect(nextBusinessDay('2026-02-14')).toBe('2026-02-18');
    expect(nextBusinessDay('2026-04-03')).toBe('2026-04-06');
    expect(nextBusinessDay('2026-11-20')).toBe('2026-11-23');
    expect(isBusinessDay('2023-11-20')).toBe(true);
  });
});

describe('clock and time zones', () => {
  afterEach(() => setNow(null));

  it('when the clock is fixed, then now() and todayIn() follow it and each zone turns at its own midnight', () => {
    setNow('2026-03-17T23:30:00-03:00');
    expect(now().toISOString()).toBe('2026-03-18T02:30:00.000Z');
    expect(todayIn('America/Sao_Paulo')).toBe('2026-03-17');
    expect(todayIn('UTC')).toBe('2026-03-18');
    setNow('2026-03-18T00:30:00-03:00');
    expect(todayIn('America/Sao_Paulo')).toBe('2026-03-18');
    expect(todayIn('America/Manaus')).toBe('2026-03-17');
    setNow('2026-03-18T00:30:00-04:00');
    expect(todayIn('America/Manaus')).toBe('2026-03-18');
  });

  it('when a zone is not an IANA name, then it is refused', () => {
    expect(isValidTimeZone('America/Manaus')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('-03:00')).toBe(false);
    expect(canonicalTimeZone('america/manaus')).toBe('America/Manaus');
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone(3)).toBe(false);
  });
});
