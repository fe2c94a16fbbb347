import fc from 'fast-check';
import { MIN_POLL_MS, nextPollMs, POLL_MS } from '../src/domain/jobs/poll-interval.ts';

describe('the pause before reading a waited-on job again', () => {
  it('when anything is known of the job, then the pause stays within [MIN_POLL_MS, POLL_MS]', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 110 }), fc.nat(60_000), (progress, elapsed) => {
        const pause = nextPollMs(progress, elapsed);
        expect(pause).toBeGreaterThanOrEqual(MIN_POLL_MS);
        expect(pause).toBeLessThanOrEqual(POLL_MS);
      }),
    );
  });

  it('when the job has gone further at the same time, then the pause is never longer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 98 }), fc.integer({ min: 1, max: 99 }), fc.nat(60_000), (a, b, elapsed) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        expect(nextPollMs(high, elapsed)).toBeLessThanOrEqual(nextPollMs(low, elapsed));
      }),
    );
  });

  it('when a job has not reported progress, then it is read every POLL_MS; near its end, half its expected time left', () => {
    expect(nextPollMs(0, 1_000)).toBe(POLL_MS);
    // 95 % in 1.9 s: 100 ms left at that pace, read again in 50
    expect(nextPollMs(95, 1_900)).toBe(50);
    expect(nextPollMs(99, 1_900)).toBe(MIN_POLL_MS);
    expect(nextPollMs(10, 1_000)).toBe(POLL_MS);
  });
});
