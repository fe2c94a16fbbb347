import fc from 'fast-check';
import { MAX_INSTALLMENTS, splitInstallments } from '../../src/domain/split-installments.ts';

const sum = (parts: number[]) => parts.reduce((acc, part) => acc + part, 0);

describe('splitInstallments', () => {
  it('when splitting 10000 in 3, then the first part takes the leftover cent', () => {
    expect(splitInstallments(10000, 3)).toEqual([3334, 3333, 3333]);
  });

  it.each([
    [10000, 1, [10000]],
    [10000, 4, [2500, 2500, 2500, 2500]],
    [10, 4, [3, 3, 2, 2]],
    [1, 2, [1, 0]],
    [100, 7, [15, 15, 14, 14, 14, 14, 14]],
    [10_000_000_000_000, 3, [3_333_333_333_334, 3_333_333_333_333, 3_333_333_333_333]],
  ])('when splitting %i in %i, then it returns %p', (total, n, expected) => {
    expect(splitInstallments(total, n)).toEqual(expected);
  });

  it.each([0, 121, 1.5, -2, Number.NaN])('when n is %p, then it throws a RangeError', (n) => {
    expect(() => splitInstallments(10000, n)).toThrow(RangeError);
  });

  it.each([0, -1, 10.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'when the total is %p, then it throws a RangeError',
    (total) => {
      expect(() => splitInstallments(total, 3)).toThrow(RangeError);
    },
  );

  it('when splitting any total up to 10^13 in 2..120, then the parts sum to it, differ by at most 1 and never increase', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000_000 }),
        fc.integer({ min: 2, max: MAX_INSTALLMENTS }),
        (total, n) => {
          const parts = splitInstallments(total, n);
          expect(parts).toHaveLength(n);
          expect(sum(parts)).toBe(total);
          expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
          for (let i = 1; i < n; i++) expect(parts[i]).toBeLessThanOrEqual(parts[i - 1]);
          expect(parts[n - 1]).toBe(Math.floor(total / n));
          expect(parts.filter((part) => part > Math.floor(total / n))).toHaveLength(total % n);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('when the total is a multiple of n, then every part is equal', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 1, max: MAX_INSTALLMENTS }),
        (unit, n) => {
          expect(new Set(splitInstallments(unit * n, n))).toEqual(new Set([unit]));
        },
      ),
    );
  });
});
