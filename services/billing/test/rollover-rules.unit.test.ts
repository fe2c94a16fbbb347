import { addMonthsClamped } from '@finance/shared/calendar';
import fc from 'fast-check';
import { type BillSums, billBalance } from '../src/domain/bills/bill-balance.ts';
import {
  carryOf,
  carryTargetMonth,
  heldBy,
  overpaymentBound,
  UNLIMITED_OVERPAYMENT_BOUND,
} from '../src/domain/bills/rollover-rules.ts';

const monthOf = (index: number) => addMonthsClamped('2025-01-01', index);

describe('carryOf', () => {
  it('when a bill owes, is overpaid or is settled, then it carries a debt, a credit or nothing', () => {
    expect(carryOf(500)).toEqual({ amount: 500, is_expense: true });
    expect(carryOf(-300)).toEqual({ amount: 300, is_expense: false });
    expect(carryOf(0)).toBeNull();
  });
});

describe('carryTargetMonth', () => {
  it('when the months after the source were handled, then the remainder goes to the first one that was not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.uniqueArray(fc.integer({ min: 1, max: 30 })), (source, after) => {
        const handled = new Set(after.map((n) => monthOf(source + n)));
        const target = carryTargetMonth(monthOf(source), handled);
        expect(target > monthOf(source)).toBe(true);
        expect(handled.has(target)).toBe(false);
        for (let m = source + 1; monthOf(m) < target; m++) expect(handled.has(monthOf(m))).toBe(true);
      }),
    );
  });
});

describe('overpaymentBound', () => {
  it('when a card is limited, then its limit; when unlimited, then R$ 1.000.000,00', () => {
    expect(overpaymentBound({ limit: 12_345, isUnlimited: false })).toBe(12_345);
    expect(overpaymentBound({ limit: 0, isUnlimited: true })).toBe(UNLIMITED_OVERPAYMENT_BOUND);
  });
});

/**
 * An in-memory card: bills by month index with their sums, a `handled` mark and where their remainder went.
 * `rollOver(today)` follows the rollover's rounds: the oldest unhandled bill due before `today`, its sums
 * read after the previous carries landed, carried with `carryOf` into `carryTargetMonth`.
 */
class CardModel {
  bills = new Map<number, BillSums & { handled: boolean; carried: boolean }>();

  bill(month: number) {
    let found = this.bills.get(month);
    if (!found) {
      found = { purchases: 0, credits: 0, payments: 0, recurring: 0, handled: false, carried: false };
      this.bills.set(month, found);
    }
    return found;
  }

  rollOver(today: number) {
    for (;;) {
      const due = [...this.bills.entries()]
        .filter(([month, bill]) => month < today && !bill.handled)
        .sort(([a], [b]) => a - b)[0];
      if (!due) return;
      const [month, bill] = due;
      const carry = carryOf(billBalance(bill));
      bill.handled = true;
      if (!carry) continue;
      bill.carried = true;
      const handled = new Set([...this.bills].filter(([, b]) => b.handled).map(([m]) => monthOf(m)));
      const targetMonth = carryTargetMonth(monthOf(month), handled);
      let target = month + 1;
      while (monthOf(target) !== targetMonth) target++;
      if (carry.is_expense) this.bill(target).purchases += carry.amount;
      else this.bill(target).credits += carry.amount;
    }
  }

  owed = () => [...this.bills.values()].filter((b) => !b.handled).reduce((sum, b) => sum + billBalance(b), 0);

  held = (today: number) =>
    [...this.bills.entries()]
      .filter(([, b]) => !b.handled)
      .reduce((sum, [month, b]) => sum + heldBy(b, month <= today), 0);
}

type Op =
  | { kind: 'purchase'; month: number; amount: number; installments: number }
  | { kind: 'subscription'; month: number; amount: number }
  | { kind: 'credit'; month: number; amount: number }
  | { kind: 'pay'; back: number; amount: number }
  | { kind: 'day'; months: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('purchase' as const),
    month: fc.constant(0),
    amount: fc.integer({ min: 1, max: 100_000 }),
    installments: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    kind: fc.constant('subscription' as const),
    month: fc.constant(0),
    amount: fc.integer({ min: 1, max: 5000 }),
  }),
  fc.record({
    kind: fc.constant('credit' as const),
    month: fc.constant(0),
    amount: fc.integer({ min: 1, max: 50_000 }),
  }),
  fc.record({
    kind: fc.constant('pay' as const),
    back: fc.integer({ min: 0, max: 3 }),
    amount: fc.integer({ min: 1, max: 80_000 }),
  }),
  fc.record({ kind: fc.constant('day' as const), months: fc.integer({ min: 0, max: 4 }) }),
);

describe('rollover and balance rules over random histories', () => {
  it('when purchases, credits, payments and rollover runs (daily or after missed months) happen, then nothing is lost and the limit agrees', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.boolean(), (ops, everyDay) => {
        const card = new CardModel();
        const limit = 1_000_000;
        let today = 0;
        let purchases = 0;
        let credits = 0;
        let payments = 0;
        let futureRecurring = 0;
        for (const o of ops) {
          if (o.kind === 'purchase') {
            // the installments land in this bill and the next ones
            const share = Math.floor(o.amount / o.installments);
            for (let i = 0; i < o.installments; i++) {
              const amount = i === 0 ? o.amount - share * (o.installments - 1) : share;
              card.bill(today + i).purchases += amount;
            }
            purchases += o.amount;
          } else if (o.kind === 'subscription') {
            // a recurrence creates the occurrences of the next months at once; they are owed only once open
            for (let i = 0; i < 3; i++) {
              const bill = card.bill(today + i);
              bill.purchases += o.amount;
              bill.recurring = (bill.recurring ?? 0) + o.amount;
            }
            purchases += 3 * o.amount;
          } else if (o.kind === 'credit') {
            card.bill(today).credits += o.amount;
            credits += o.amount;
          } else if (o.kind === 'pay') {
            const bill = card.bill(Math.max(0, today - o.back));
            if (bill.carried) continue; // its remainder moved on: refused (409)
            if (o.amount - billBalance(bill) > limit) continue; // 400
            bill.payments += o.amount;
            bill.handled = false; // a settled bill paid again carries the credit at the next run
            payments += o.amount;
          } else {
            // a daily run every month, or one catch-up run after the missed ones
            if (everyDay) for (let m = 1; m <= o.months; m++) card.rollOver(today + m);
            today += o.months;
            card.rollOver(today);
          }
          expect(card.owed()).toBe(purchases - credits - payments);
        }
        card.rollOver(today);
        // every remainder reached the open bill; later bills hold only what was dated into them
        const open = card.bill(today);
        const later = [...card.bills.entries()].filter(([m]) => m > today).map(([, b]) => billBalance(b));
        expect(billBalance(open) + later.reduce((a, b) => a + b, 0)).toBe(purchases - credits - payments);
        for (const [month, bill] of card.bills) if (month < today) expect(bill.handled).toBe(true);
        for (const [month, bill] of card.bills) if (month > today) futureRecurring += bill.recurring ?? 0;
        expect(limit - card.held(today)).toBe(limit - (purchases - credits - payments - futureRecurring));
      }),
      { numRuns: 300 },
    );
  });
});
