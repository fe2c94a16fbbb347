import fc from 'fast-check';
import { billBalance, billFigures } from '../src/domain/bills/bill-balance.ts';
import { billStatus } from '../src/domain/bills/bill-status.ts';

const cents = fc.integer({ min: 0, max: 10_000_000_000_000 });
const sums = fc.record({ purchases: cents, credits: cents, payments: fc.integer({ min: -1e13, max: 1e13 }) });

describe('billFigures', () => {
  it('when a bill has any sums, then value = purchases − credits, paid = payments and balance = value − paid', () => {
    fc.assert(
      fc.property(sums, (s) => {
        const figures = billFigures(s);
        expect(figures.value).toBe(s.purchases - s.credits);
        expect(figures.paid).toBe(s.payments);
        expect(figures.balance).toBe(figures.value - figures.paid);
        expect(billBalance(s)).toBe(figures.balance);
      }),
    );
  });

  it('when the ledger holds nothing of a bill, then every figure is zero', () => {
    expect(billFigures(undefined)).toEqual({ value: 0, paid: 0, balance: 0 });
  });

  it('when a purchase, a credit or a payment is added, then the balance moves by exactly its amount', () => {
    fc.assert(
      fc.property(sums, cents, (s, amount) => {
        const before = billBalance(s);
        expect(billBalance({ ...s, purchases: s.purchases + amount })).toBe(before + amount);
        expect(billBalance({ ...s, credits: s.credits + amount })).toBe(before - amount);
        expect(billBalance({ ...s, payments: s.payments + amount })).toBe(before - amount);
      }),
    );
  });

  it('when a closed bill is paid in full or more, then it is PAID, and not pending', () => {
    fc.assert(
      fc.property(sums, fc.nat({ max: 1_000_000 }), (s, extra) => {
        const paidInFull = { ...s, payments: s.purchases - s.credits + extra };
        const dates = { openDate: '2026-01-01', closingDate: '2026-02-01', dueDate: '2026-02-10' };
        const figures = { ...billFigures(paidInFull), count: 1 };
        expect(billStatus(dates, figures, '2026-02-05')).toEqual({ status: 'PAID', isPending: false });
      }),
    );
  });
});
