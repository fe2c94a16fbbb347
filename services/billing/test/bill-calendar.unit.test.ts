import { addDays, compare } from '@finance/shared/calendar';
import fc from 'fast-check';
import { type BillDates, datesOfMonth, monthForDate, openDateOf } from '../src/domain/bills/bill-calendar.ts';
import { billStatus } from '../src/domain/bills/bill-status.ts';

const card = { closingDay: 10, dueDay: 17 };
const none = new Map<string, BillDates>();

describe('monthForDate', () => {
  it('when closing 10 and due 17, then the 5th and the 10th fall in consecutive bills', () => {
    expect(monthForDate(card, none, '2026-03-05')).toBe('2026-03-01');
    expect(monthForDate(card, none, '2026-03-10')).toBe('2026-04-01');
  });

  it('when one bill has its own closing date, then the dates around it follow that bill', () => {
    const stored = new Map([
      ['2026-03-01', { referenceMonth: '2026-03-01', closingDate: '2026-03-07', dueDate: '2026-03-17' }],
    ]);
    expect(monthForDate(card, stored, '2026-03-06')).toBe('2026-03-01');
    expect(monthForDate(card, stored, '2026-03-07')).toBe('2026-04-01');
    expect(openDateOf(card, stored, '2026-04-01')).toBe('2026-03-07');
  });

  it('when any days and one overridden bill are given, then every day lies in exactly the bill it resolves to', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 400 }),
        (closingDay, dueDay, overrideDay, offset) => {
          const days = { closingDay, dueDay };
          const base = datesOfMonth(days, none, '2026-06-01');
          const stored = new Map([
            [
              '2026-06-01',
              { ...base, closingDate: `${base.closingDate.slice(0, 8)}${String(overrideDay).padStart(2, '0')}` },
            ],
          ]);
          // an override must keep bills in order to be meaningful
          const prev = datesOfMonth(days, stored, '2026-05-01').closingDate;
          const next = datesOfMonth(days, stored, '2026-07-01').closingDate;
          const own = stored.get('2026-06-01')!.closingDate;
          fc.pre(compare(prev, own) < 0 && compare(own, next) < 0);
          const date = addDays('2025-12-01', offset);
          const month = monthForDate(days, stored, date);
          expect(compare(openDateOf(days, stored, month), date)).toBeLessThanOrEqual(0);
          expect(compare(date, datesOfMonth(days, stored, month).closingDate)).toBe(-1);
        },
      ),
    );
  });
});

describe('billStatus', () => {
  const dates = { openDate: '2026-02-10', closingDate: '2026-03-10', dueDate: '2026-03-17' };
  const owing = { value: 100, paid: 0, balance: 100, count: 1 };
  it.each([
    ['2026-02-01', owing, 'FUTURE', false],
    ['2026-03-01', owing, 'OPEN', false],
    ['2026-03-12', owing, 'CLOSED', true],
    ['2026-03-18', owing, 'OVERDUE', true],
    ['2026-03-18', { value: 100, paid: 100, balance: 0, count: 1 }, 'PAID', false],
    ['2026-03-01', { value: -50, paid: 0, balance: -50, count: 1 }, 'PAID', false],
    ['2026-03-01', { value: 0, paid: 0, balance: 0, count: 0 }, 'OPEN', false],
  ])('when today is %s with %o, then %s (pending %s)', (today, figures, status, isPending) => {
    expect(billStatus(dates, figures, today)).toEqual({ status, isPending });
  });
});
