import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import fc from 'fast-check';
import { apportion } from '../../src/domain/apportion.ts';
import { partsFor, rebalanced, ruleParts, sumOf } from '../../src/domain/splits/split-parts.ts';

const MAX = 10_000_000_000_000;
const amount = fc.integer({ min: 1, max: MAX });
const part = (cents: number, n: number): SplitPart => ({
  id: `p${n}`,
  amount: cents,
  category_id: `c${n}`,
  subcategory_id: null,
  description: null,
  tag_ids: [],
  contact_id: null,
  cost_center_id: null,
});
/** A split as a client may send it: 2–50 parts of at least a cent, summing to the entry's amount. */
const split = fc
  .array(fc.integer({ min: 1, max: MAX / 50 }), { minLength: 2, maxLength: 50 })
  .map((amounts) => amounts.map(part));

describe('the remainder-cent rule (apportion) and the parts of a split', () => {
  it('when any total is shared by any weights, then the shares sum to it, each within a cent of its exact share, the leftover cents on the first ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX }),
        fc.array(fc.integer({ min: 1, max: MAX }), { minLength: 1, maxLength: 60 }),
        (total, weights) => {
          const shares = apportion(total, weights);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((acc, weight) => acc + BigInt(weight), 0n);
          shares.forEach((share, index) => {
            const floor = Number((BigInt(total) * BigInt(weights[index])) / sum);
            expect(share - floor).toBeGreaterThanOrEqual(0);
            expect(share - floor).toBeLessThanOrEqual(1);
            // a leftover cent never goes to a share after one that got none
            if (index > 0 && share > floor) {
              const before = Number((BigInt(total) * BigInt(weights[index - 1])) / sum);
              expect(shares[index - 1]).toBe(before + 1);
            }
          });
        },
      ),
    );
  });

  it('when 70/30 shares R$ 10,01, then the first part takes the leftover cent', () => {
    expect(apportion(1_001, [7_000, 3_000])).toEqual([701, 300]);
    expect(apportion(10_001, [1, 1, 1])).toEqual([3_334, 3_334, 3_333]);
  });

  it('when a split goes to another member of its series, then its parts sum to that amount, or it is refused when a part would get no cent', () => {
    fc.assert(
      fc.property(split, amount, (parts, other) => {
        const scaled = partsFor(parts, other);
        if (scaled === null)
          expect(
            apportion(
              other,
              parts.map((share) => share.amount),
            ),
          ).toContain(0);
        else {
          expect(sumOf(scaled)).toBe(other);
          expect(scaled.every((share) => share.amount >= 1)).toBe(true);
          expect(scaled.map((share) => share.category_id)).toEqual(parts.map((share) => share.category_id));
        }
      }),
    );
  });

  it('when a split entry takes a new amount, then its parts sum to it again (or it is no longer split) and every part keeps a cent', () => {
    fc.assert(
      fc.property(split, amount, (parts, changed) => {
        const kept = rebalanced(parts, changed);
        if (kept.length === 0) return;
        expect(kept.length).toBeGreaterThanOrEqual(2);
        expect(sumOf(kept)).toBe(changed);
        expect(kept.every((share) => share.amount >= 1)).toBe(true);
      }),
    );
    const same = [part(600, 0), part(400, 1)];
    expect(rebalanced(same, 1_000)).toEqual(same);
    // 100 over 9,998/1/1: 100, 0, 0: the parts with no cent go, and one part left is no split
    expect(rebalanced([part(9_998, 0), part(1, 1), part(1, 2)], 100)).toEqual([]);
  });

  it("when a rule's percentages split an amount, then the parts sum to it, or none when a part would get no cent", () => {
    fc.assert(
      fc.property(
        amount,
        fc.array(fc.integer({ min: 1, max: 9_999 }), { minLength: 2, maxLength: 20 }),
        (total, raw) => {
          const shares = raw.map((basis_points, n) => ({ basis_points, category_id: `c${n}`, subcategory_id: null }));
          const parts = ruleParts(total, shares);
          if (parts) expect(sumOf(parts)).toBe(total);
          else expect(apportion(total, raw).some((share) => share === 0)).toBe(true);
        },
      ),
    );
  });
});
