import { combinedWindows } from '../report.ts';

const window = (requests: number, seconds: number, p50: number, p99: number, non2xx = 0, errors = 0) => ({
  requests,
  seconds,
  rps: requests / seconds,
  p50,
  p99,
  non2xx,
  errors,
});

describe('bench: the windows of one side of an alternating scenario', () => {
  it('when windows differ in length and speed, then the rate is their requests over their seconds, p50 their mean and p99 the worst', () => {
    // a slow spell in the second window: averaging the two rates (150) would overstate the run
    const figures = combinedWindows([window(1_000, 5, 8, 20, 1, 0), window(500, 10, 12, 45, 0, 2)]);
    expect(figures).toEqual({ rps: 100, p50: 10, p99: 45, requests: 1_500, non2xx: 1, errors: 2 });
  });

  it('when there is one window, then its own figures come back', () => {
    expect(combinedWindows([window(2_345, 10, 7.25, 23)])).toEqual({
      rps: 234.5,
      p50: 7.3,
      p99: 23,
      requests: 2_345,
      non2xx: 0,
      errors: 0,
    });
  });
});
