import { addMonthsClamped, compare, FREQUENCIES } from '@finance/shared/calendar';
import fc from 'fast-check';
import { buildRows } from '../../src/domain/transactions/create-transaction.ts';
import { transferLegs } from '../../src/domain/transactions/create-transfer.ts';
import { transactionIdsOf } from '../../src/domain/transactions/transaction-ids.ts';

const ctx = { userId: '0190a1b2-0000-7000-8000-000000000001', profileId: null, business: false, keyId: null };
const ACCOUNT = '0190a1b2-0000-7000-8000-0000000000aa';
const date = fc
  .record({
    y: fc.integer({ min: 2000, max: 2100 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ y, m, d }) => addMonthsClamped(`${y}-${String(m).padStart(2, '0')}-01`, 0, d));
const signed = (row: { amount: number; is_expense: boolean }) => (row.is_expense ? -row.amount : row.amount);

describe('transaction rows', () => {
  it('when a transfer is built, then its legs net to zero, share amount, date and paid, and link to the first', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000_000 }), date, fc.boolean(), (amount, day, paid) => {
        const legs = transferLegs(ctx, {
          amount,
          date: day,
          paid,
          sent_account_id: ACCOUNT,
          received_account_id: '0190a1b2-0000-7000-8000-0000000000bb',
          title: 'Transferência',
        });
        expect(legs.map(signed).reduce((a, b) => a + b, 0)).toBe(0);
        expect(new Set(legs.map((leg) => `${leg.amount}|${leg.date}|${leg.paid}|${leg.type}`)).size).toBe(1);
        expect(legs.every((leg) => leg.connected_transaction_id === legs[0].id)).toBe(true);
      }),
    );
  });

  it('when a purchase is split, then members sum to the total, are numbered 1..n and step monthly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 120 }), fc.integer({ min: 120, max: 1e12 }), date, (n, total, day) => {
        const rows = buildRows(
          ctx,
          {
            amount: total,
            date: day,
            is_expense: true,
            title: 't',
            account_id: ACCOUNT,
            type: 'PARCELLED',
            installments: n,
            is_full_amount: true,
            paid: true,
          },
          '2026-01-01',
        );
        expect(rows).toHaveLength(n);
        expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(total);
        expect(rows.map((row) => row.installment_number)).toEqual(rows.map((_, i) => i + 1));
        expect(rows.every((row) => row.connected_transaction_id === rows[0].id && row.installments === n)).toBe(true);
        expect(rows.map((row) => row.date)).toEqual(rows.map((_, i) => addMonthsClamped(day, i)));
        expect(rows.filter((row) => row.paid).map((row) => row.series_index)).toEqual([0]);
      }),
    );
  });

  it('when a recurrence is built, then dates are distinct, ascending and within the horizon (at least one)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FREQUENCIES), date, date, (frequency, day, today) => {
        const rows = buildRows(
          ctx,
          { amount: 1, date: day, is_expense: false, title: 't', account_id: ACCOUNT, type: 'RECURRENT', frequency },
          today,
        );
        expect(rows.length).toBeGreaterThanOrEqual(1);
        expect(rows[0].date).toBe(day);
        for (let i = 1; i < rows.length; i++) expect(compare(rows[i - 1].date, rows[i].date)).toBe(-1);
        if (rows.length > 1)
          expect(compare(rows[rows.length - 1].date, addMonthsClamped(today, 12))).toBeLessThanOrEqual(0);
      }),
      { numRuns: 30 },
    );
  });

  it('when ids come in every accepted form, then they are merged, distinct and checked', () => {
    const a = '0190a1b2-0000-7000-8000-000000000001';
    const b = '0190a1b2-0000-7000-8000-000000000002';
    expect(transactionIdsOf({ transactions_ids: `${a},${b}`, 'transactions_ids[]': [b] })).toEqual([a, b]);
    expect(transactionIdsOf({ transactions_ids: [a, b] })).toEqual([a, b]);
    expect(transactionIdsOf({ transactions_ids: { 0: a, 1: b } })).toEqual([a, b]);
    expect(() => transactionIdsOf({})).toThrow();
    expect(() => transactionIdsOf({ transactions_ids: 'nope' })).toThrow();
  });
});
