import fc from 'fast-check';
import { goalProgress } from '../src/domain/goals/goal-progress.ts';

describe('goalProgress', () => {
  it('when R$ 250 of R$ 1.000 is saved after a withdrawal, then saved is 25000 and progress 25', () => {
    const values = [
      { value: 30_000, isExpense: false },
      { value: 5_000, isExpense: true },
    ];
    expect(goalProgress(100_000, values)).toEqual({ saved: 25_000, progress_percent: 25 });
  });

  it('when nothing is saved, then progress is 0; when more than the amount is, then it passes 100', () => {
    expect(goalProgress(100_000, [])).toEqual({ saved: 0, progress_percent: 0 });
    expect(goalProgress(3, [{ value: 1, isExpense: false }])).toEqual({ saved: 1, progress_percent: 33.33 });
    expect(goalProgress(1_000, [{ value: 1_500, isExpense: false }])).toEqual({ saved: 1_500, progress_percent: 150 });
  });

  it('when any deposits and withdrawals are summed, then saved is their signed sum and progress is the rounded-down ratio', () => {
    const cents = fc.integer({ min: 1, max: 10 ** 13 });
    fc.assert(
      fc.property(
        cents,
        fc.array(fc.record({ value: fc.integer({ min: 1, max: 10 ** 9 }), isExpense: fc.boolean() }), {
          maxLength: 20,
        }),
        (amount, values) => {
          const { saved, progress_percent } = goalProgress(amount, values);
          const expected = values.reduce((sum, v) => sum + (v.isExpense ? -BigInt(v.value) : BigInt(v.value)), 0n);
          expect(BigInt(saved)).toBe(expected);
          const hundredths = Math.round(progress_percent * 100);
          if (expected <= 0n) expect(hundredths).toBe(0);
          else {
            expect(BigInt(hundredths) * BigInt(amount) <= expected * 10_000n).toBe(true);
            expect(BigInt(hundredths + 1) * BigInt(amount) > expected * 10_000n).toBe(true);
          }
        },
      ),
    );
  });
});
