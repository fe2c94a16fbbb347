import fc from 'fast-check';
import { todayIn } from '../src/clock.ts';

/** The day as Intl gives it, with no cache in between. */
const plainDay = (zone: string, instant: Date) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
};

// zones with half- and three-quarter-hour offsets, daylight saving on both hemispheres, and the default
const ZONES = [
  'America/Sao_Paulo',
  'America/Noronha',
  'America/Manaus',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Australia/Adelaide',
  'America/New_York',
  'UTC',
];

describe('todayIn: the day of a zone at an instant (one formatting per zone and minute)', () => {
  it('when instants are asked in any order, then each answer is the day Intl gives for that instant', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            zone: fc.constantFrom(...ZONES),
            // every zone's midnight falls on a UTC quarter hour: asks cluster around them to cross days often
            at: fc
              .tuple(
                fc.integer({ min: Date.UTC(1990, 0, 1) / 900_000, max: Date.UTC(2040, 0, 1) / 900_000 }),
                fc.integer({ min: -90_000, max: 90_000 }),
              )
              .map(([quarter, jitter]) => quarter * 900_000 + jitter),
            // the next ask lands a few seconds away: across the day's edge or within the cached minute
            steps: fc.array(fc.integer({ min: -90_000, max: 90_000 }), { maxLength: 5 }),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (asks) => {
          for (const { zone, at, steps } of asks) {
            for (const instant of [at, ...steps.map((step) => at + step)]) {
              expect(todayIn(zone, new Date(instant))).toBe(plainDay(zone, new Date(instant)));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when São Paulo midnight is crossed by one millisecond, then the day changes at exactly that instant', () => {
    const midnight = Date.UTC(2026, 2, 11, 3, 0, 0); // 00:00 in São Paulo (UTC−3)
    expect(todayIn('America/Sao_Paulo', new Date(midnight - 1))).toBe('2026-03-10');
    expect(todayIn('America/Sao_Paulo', new Date(midnight))).toBe('2026-03-11');
    expect(todayIn('America/Sao_Paulo', new Date(midnight - 1))).toBe('2026-03-10');
  });
});
