import fc from 'fast-check';
import { percentagesLargestRemainder } from '../src/domain/percentages.ts';

const toBasisPoints = (text: string) => {
  const [whole, decimals] = text.split('.');
  return Number(whole) * 100 + Number(decimals);
};

describe('percentagesLargestRemainder', () => {
  it('when values are split in thirds, then the leftover hundredth goes to the first', () => {
    expect(percentagesLargestRemainder([1, 1, 1])).toEqual(['33.34', '33.33', '33.33']);
  });

  it('when one value holds everything, then it is 100.00', () => {
    expect(percentagesLargestRemainder([500])).toEqual(['100.00']);
  });

  it('when the list is empty, then the result is empty', () => {
    expect(percentagesLargestRemainder([])).toEqual([]);
  });

  it('when values are random cents, then every list has two decimals and sums to exactly 100.00', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000_000_000 }), { minLength: 1, maxLength: 60 }),
        (values) => {
          const shares = percentagesLargestRemainder(values);
          expect(shares).toHaveLength(values.length);
          for (const share of shares) expect(share).toMatch(/^\d{1,3}\.\d{2}$/);
          expect(shares.reduce((sum, share) => sum + toBasisPoints(share), 0)).toBe(10_000);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('when values are random, then each share is within one hundredth of its exact value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 30 }), (values) => {
        const total = values.reduce((a, b) => a + b, 0);
        percentagesLargestRemainder(values).forEach((share, i) => {
          expect(Math.abs(toBasisPoints(share) - (values[i] * 10_000) / total)).toBeLessThan(1);
        });
      }),
    );
  });
  it('when every value is zero, then every share is 0.00', () => {
    expect(percentagesLargestRemainder([0, 0, 0])).toEqual(['0.00', '0.00', '0.00']);
  });

  it('when some values are zero, then they get 0.00 and the rest still sum to 100.00', () => {
    expect(percentagesLargestRemainder([0, 2, 0, 1])).toEqual(['0.00', '66.67', '0.00', '33.33']);
  });

  it('when remainders tie, then the earlier items take the leftover hundredths', () => {
    expect(percentagesLargestRemainder([1, 1, 1, 1, 1, 1, 1])).toEqual([
      '14.29',
      '14.29',
      '14.29',
      '14.29',
      '14.28',
      '14.28',
      '14.28',
    ]);
  });

  it('when random lists include zeros, then the sum is exactly 100.00 and each share is within 0.01 of exact', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10_000_000_000_000 })), { maxLength: 80 }),
        (values) => {
          const shares = percentagesLargestRemainder(values);
          const total = values.reduce((sum, value) => sum + BigInt(value), 0n);
          if (total === 0n) {
            expect(shares).toEqual(values.map(() => '0.00'));
            return;
          }
          expect(shares.reduce((sum, share) => sum + toBasisPoints(share), 0)).toBe(10_000);
          shares.forEach((share, i) => {
            // |share − exact| < 1 basis point ⇔ |share·total − value·10^4| < total, exact in BigInt.
            const difference = BigInt(toBasisPoints(share)) * total - BigInt(values[i]) * 10_000n;
            expect(difference < total && -difference < total).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
