import fc from 'fast-check';
import { afterCrash, DEFAULT_RESTART_POLICY as policy } from '../../scripts/restart-policy.ts';

describe('npm start: restart policy of a crashed service', () => {
  it('when a service crashes for the first time, then it restarts after the first delay', () => {
    expect(afterCrash([1000], 1000)).toEqual({ restart: true, delayMs: 250 });
  });

  it('when crashes follow each other, then the delay doubles up to 5 s', () => {
    const delays = [1, 2, 3, 4].map((n) => {
      const times = Array.from({ length: n }, (_, i) => i * 10);
      const decision = afterCrash(times, times[n - 1], { ...policy, maxCrashes: 100 });
      return decision.restart ? decision.delayMs : -1;
    });
    expect(delays).toEqual([250, 500, 1000, 2000]);
    const many = Array.from({ length: 30 }, (_, i) => i);
    expect(afterCrash(many, 29, { ...policy, maxCrashes: 100 })).toEqual({ restart: true, delayMs: 5000 });
  });

  it('when the fifth crash comes within a minute, then it is not restarted', () => {
    expect(afterCrash([0, 1000, 2000, 3000, 59_000], 59_000)).toEqual({ restart: false, crashes: 5 });
  });

  it('when earlier crashes are older than a minute, then they do not count and the delay starts over', () => {
    expect(afterCrash([0, 1000, 2000, 3000, 70_000], 70_000)).toEqual({ restart: true, delayMs: 250 });
  });

  it('when any crash history is given, then it restarts exactly while fewer than five crashes are recent, within the bounds', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: 1, maxLength: 20 }), (raw) => {
        const times = [...raw].sort((a, b) => a - b);
        const now = times[times.length - 1];
        const recent = times.filter((at) => now - at < policy.windowMs).length;
        const decision = afterCrash(times, now);
        expect(decision.restart).toBe(recent < policy.maxCrashes);
        if (decision.restart) {
          expect(decision.delayMs).toBeGreaterThanOrEqual(policy.firstDelayMs);
          expect(decision.delayMs).toBeLessThanOrEqual(policy.maxDelayMs);
        }
      }),
    );
  });
});
