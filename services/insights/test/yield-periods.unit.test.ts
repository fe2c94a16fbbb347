import { addDays } from '@finance/shared/calendar';
import fc from 'fast-check';
import {
  computeYieldReport,
  type InvestmentSnapshot,
  investmentTypeLabel,
  type YieldPeriod,
} from '../src/domain/yield-periods.ts';

const snap = (
  investmentId: string,
  date: string,
  balanceCents: number,
  extra: Partial<InvestmentSnapshot> = {},
): InvestmentSnapshot => ({
  investmentId,
  name: `Posição ${investmentId}`,
  bankName: 'Banco X',
  type: 'FIXED_INCOME',
  subtype: 'TREASURY',
  date,
  balanceCents,
  ...extra,
});

const counts = (period: YieldPeriod) => ({
  computed: period.positions_computed,
  new: period.positions_new,
  closed: period.positions_closed,
  unknown: period.positions_unknown,
  total: period.positions_total,
  missing: period.items_missing,
});

describe('computeYieldReport availability', () => {
  it('when there are no snapshots, then it is unavailable and ready the day after the reference date', () => {
    const report = computeYieldReport({ snapshots: [], referenceDate: '2026-03-10' });
    expect(report).toMatchObject({
      available: false,
      estimated_ready_date: '2026-03-11',
      first_snapshot_date: null,
      latest_snapshot_date: null,
      snapshot_days: 0,
      total_balance_cents: 0,
      positions: [],
      by_type: [],
    });
    expect(report.reason).toMatch(/snapshots/);
    for (const period of [report.today, report.previous, report.last_7_days, report.month_to_date]) {
      expect(period).toMatchObject({ computable: false, from_date: null, to_date: null, interval_days: 0 });
      expect(period.positions_total).toBe(0);
    }
  });

  it('when there is one snapshot day, then it is unavailable and ready the day after that snapshot', () => {
    const report = computeYieldReport({
      snapshots: [snap('a', '2026-03-02', 100_000), snap('b', '2026-03-02', 50_000)],
      referenceDate: '2026-03-10',
    });
    expect(report.available).toBe(false);
    expect(report.reason).toMatch(/2 dias/);
    expect(report.estimated_ready_date).toBe('2026-03-03');
    expect(report.snapshot_days).toBe(1);
    expect(report.first_snapshot_date).toBe('2026-03-02');
    expect(report.latest_snapshot_date).toBe('2026-03-02');
    expect(report.today).toMatchObject({ computable: false, from_date: null, to_date: '2026-03-02', label: 'Hoje' });
    expect(report.total_balance_cents).toBe(150_000);
    expect(report.positions.map((p) => [p.investment_id, p.yield_cents, p.yield_percent])).toEqual([
      ['a', 0, 0],
      ['b', 0, 0],
    ]);
  });

  it('when there are two snapshot days, then it is available with an empty reason and ready on the second day', () => {
    const report = computeYieldReport({
      snapshots: [snap('a', '2026-03-02', 100_000), snap('a', '2026-03-03', 100_150)],
      referenceDate: '2026-03-03',
    });
    expect(report).toMatchObject({ available: true, reason: '', estimated_ready_date: '2026-03-03', snapshot_days: 2 });
    expect(report.today).toMatchObject({
      computable: true,
      from_date: '2026-03-02',
      to_date: '2026-03-03',
      interval_days: 1,
      yield_cents: 150,
      yield_percent: 0.15,
      coverage_percent: 100,
    });
    expect(report.previous).toMatchObject({
      computable: false,
      from_date: null,
      to_date: '2026-03-02',
      label: 'Anterior',
    });
  });

  it('when snapshots lie after a past reference date, then the report is as of that date', () => {
    const snapshots = [
      snap('a', '2026-01-30', 1000),
      snap('a', '2026-01-31', 1010),
      snap('a', '2026-02-01', 1030),
      snap('b', '2026-02-02', 9999),
      snap('a', '2026-02-02', 1100),
    ];
    const report = computeYieldReport({ snapshots, referenceDate: '2026-02-01' });
    expect(report.latest_snapshot_date).toBe('2026-02-01');
    expect(report.snapshot_days).toBe(3);
    expect(report.total_balance_cents).toBe(1030);
    expect(report.today).toMatchObject({ from_date: '2026-01-31', to_date: '2026-02-01', yield_cents: 20 });
    expect(report.previous).toMatchObject({ from_date: '2026-01-30', to_date: '2026-01-31', yield_cents: 10 });
    expect(report.positions.map((p) => p.investment_id)).toEqual(['a']);
  });

  it('when only one day lies on or before the reference date, then later days do not make it available', () => {
    const report = computeYieldReport({
      snapshots: [snap('a', '2026-02-01', 1000), snap('a', '2026-02-05', 1000)],
      referenceDate: '2026-02-03',
    });
    expect(report).toMatchObject({ available: false, snapshot_days: 1, estimated_ready_date: '2026-02-02' });
  });
});

describe('computeYieldReport periods', () => {
  // Mar 2026: snapshots on Feb 27, Feb 28, Mar 2, Mar 6, Mar 8, Mar 9 (reference Mar 10).
  const snapshots = [
    snap('a', '2026-02-27', 10_000),
    snap('b', '2026-02-27', 20_000),
    snap('a', '2026-02-28', 10_100),
    snap('b', '2026-02-28', 20_000),
    snap('a', '2026-03-02', 10_200),
    snap('b', '2026-03-02', 20_100),
    snap('c', '2026-03-02', 5_000),
    snap('a', '2026-03-06', 10_300),
    snap('c', '2026-03-06', 5_050),
    snap('a', '2026-03-08', 10_400),
    snap('b', '2026-03-08', 20_300),
    snap('a', '2026-03-09', 10_450),
    snap('b', '2026-03-09', 20_350),
    snap('d', '2026-03-09', 7_000),
  ];
  const report = computeYieldReport({ snapshots, referenceDate: '2026-03-10' });

  it('when today compares the last two days, then a position appearing today is new', () => {
    expect(report.today).toMatchObject({
      label: 'Hoje',
      from_date: '2026-03-08',
      to_date: '2026-03-09',
      interval_days: 1,
      computable: true,
      yield_cents: 100,
      yield_percent: roundTo2((100 / 30_700) * 100),
      coverage_percent: 66.67,
    });
    expect(counts(report.today)).toEqual({ computed: 2, new: 1, closed: 0, unknown: 0, total: 3, missing: 1 });
  });

  it('when previous compares the two days before, then a position absent on the later day is closed', () => {
    expect(report.previous).toMatchObject({ from_date: '2026-03-06', to_date: '2026-03-08', interval_days: 2 });
    // a computed; c only at from (closed); b only at to (new).
    expect(counts(report.previous)).toEqual({ computed: 1, new: 1, closed: 1, unknown: 0, total: 3, missing: 2 });
    expect(report.previous.yield_cents).toBe(100);
    expect(report.previous.coverage_percent).toBe(33.33);
  });

  it('when last 7 days looks back from the latest day, then it starts at the last day on or before 7 days earlier', () => {
    expect(report.last_7_days).toMatchObject({
      label: 'Últimos 7 dias',
      from_date: '2026-03-02',
      to_date: '2026-03-09',
      interval_days: 7,
      yield_cents: 250 + 250,
    });
    // a, b computed; d new; c held on Mar 2 but gone by Mar 9 is closed.
    expect(counts(report.last_7_days)).toEqual({ computed: 2, new: 1, closed: 1, unknown: 0, total: 4, missing: 2 });
    expect(report.last_7_days.coverage_percent).toBe(50);
  });

  it('when month to date starts at the last snapshot of the previous month, then it spans the month turn', () => {
    expect(report.month_to_date).toMatchObject({
      label: 'Mês atual',
      from_date: '2026-02-28',
      to_date: '2026-03-09',
      interval_days: 9,
      yield_cents: 350 + 350,
      yield_percent: roundTo2((700 / 30_100) * 100),
    });
    // c opened and closed inside the period, so it lacks both ends: unknown.
    expect(counts(report.month_to_date)).toEqual({ computed: 2, new: 1, closed: 0, unknown: 1, total: 4, missing: 2 });
  });

  it('when history starts inside the current month, then month to date is not computable', () => {
    const fresh = computeYieldReport({
      snapshots: [snap('a', '2026-03-02', 100), snap('a', '2026-03-03', 110)],
      referenceDate: '2026-03-03',
    });
    expect(fresh.month_to_date).toMatchObject({ computable: false, from_date: null, to_date: '2026-03-03' });
    expect(fresh.last_7_days).toMatchObject({ computable: false, from_date: null, to_date: '2026-03-03' });
  });

  it('when a balance is unusable, then that position is unknown and left out of positions and totals', () => {
    const withBad = computeYieldReport({
      snapshots: [
        snap('a', '2026-03-02', 100),
        snap('a', '2026-03-03', 110),
        snap('x', '2026-03-02', 500),
        snap('x', '2026-03-03', Number.NaN),
      ],
      referenceDate: '2026-03-03',
    });
    expect(counts(withBad.today)).toEqual({ computed: 1, new: 0, closed: 0, unknown: 1, total: 2, missing: 1 });
    expect(withBad.positions.map((p) => p.investment_id)).toEqual(['a']);
    expect(withBad.total_balance_cents).toBe(110);
  });

  it('when every position lacks an end, then the period is not computable with zero yield', () => {
    const churn = computeYieldReport({
      snapshots: [snap('a', '2026-03-02', 100), snap('b', '2026-03-03', 110)],
      referenceDate: '2026-03-03',
    });
    expect(churn.today).toMatchObject({ computable: false, yield_cents: 0, yield_percent: 0, coverage_percent: 0 });
    expect(counts(churn.today)).toEqual({ computed: 0, new: 1, closed: 1, unknown: 0, total: 2, missing: 2 });
  });

  it('when a position loses value, then the yield and percentage are negative', () => {
    const loss = computeYieldReport({
      snapshots: [snap('a', '2026-03-02', 300), snap('a', '2026-03-03', 299)],
      referenceDate: '2026-03-03',
    });
    expect(loss.today).toMatchObject({ yield_cents: -1, yield_percent: -0.33 });
    expect(loss.positions[0]).toMatchObject({ yield_cents: -1, yield_percent: -0.33 });
  });
});

describe('computeYieldReport positions and types', () => {
  const snapshots = [
    snap('small', '2026-03-02', 1_000),
    snap('small', '2026-03-03', 1_001),
    snap('big', '2026-03-02', 900_000, { type: 'MUTUAL_FUND', subtype: 'MULTIMARKET_FUND', name: 'Fundo' }),
    snap('big', '2026-03-03', 900_900, { type: 'MUTUAL_FUND', subtype: 'MULTIMARKET_FUND', name: 'Fundo' }),
    snap('mid', '2026-03-02', 50_000),
    snap('mid', '2026-03-03', 50_500),
    snap('gone', '2026-03-02', 999_999),
    snap('odd', '2026-03-03', 3_000, { type: 'SOMETHING_NEW', subtype: null }),
  ];

  it('when listing positions, then they are the latest day ones by balance descending with today yield', () => {
    const report = computeYieldReport({ snapshots, referenceDate: '2026-03-03' });
    expect(report.positions).toEqual([
      {
        investment_id: 'big',
        name: 'Fundo',
        bank_name: 'Banco X',
        label: 'Fundos de investimento',
        type: 'MUTUAL_FUND',
        subtype: 'MULTIMARKET_FUND',
        basis: 'snapshot',
        balance_cents: 900_900,
        yield_cents: 900,
        yield_percent: 0.1,
      },
      expect.objectContaining({ investment_id: 'mid', balance_cents: 50_500, yield_cents: 500, yield_percent: 1 }),
      expect.objectContaining({ investment_id: 'odd', label: 'Outros', yield_cents: 0, yield_percent: 0 }),
      expect.objectContaining({ investment_id: 'small', label: 'Renda fixa', yield_cents: 1, yield_percent: 0.1 }),
    ]);
    expect(report.total_balance_cents).toBe(900_900 + 50_500 + 3_000 + 1_001);
  });

  it('when a limit is given, then only that many positions are listed', () => {
    const report = computeYieldReport({ snapshots, referenceDate: '2026-03-03', limit: 2 });
    expect(report.positions.map((p) => p.investment_id)).toEqual(['big', 'mid']);
    expect(report.total_balance_cents).toBe(900_900 + 50_500 + 3_000 + 1_001);
  });

  it('when no limit is given, then up to 20 positions are listed', () => {
    const many = Array.from({ length: 25 }, (_, i) => snap(`p${i}`, '2026-03-03', 1_000 + i));
    const report = computeYieldReport({ snapshots: many, referenceDate: '2026-03-03' });
    expect(report.positions).toHaveLength(20);
    expect(report.positions[0].investment_id).toBe('p24');
  });

  it('when balances tie, then positions order by name, then id', () => {
    const report = computeYieldReport({
      snapshots: [
        snap('b', '2026-03-03', 10, { name: 'Z' }),
        snap('c', '2026-03-03', 10, { name: 'A' }),
        snap('a', '2026-03-03', 10, { name: 'A' }),
      ],
      referenceDate: '2026-03-03',
    });
    expect(report.positions.map((p) => p.investment_id)).toEqual(['a', 'c', 'b']);
  });

  it('when grouping by type, then each label sums latest balances and today yield', () => {
    const report = computeYieldReport({ snapshots, referenceDate: '2026-03-03' });
    expect(report.by_type).toEqual([
      { label: 'Fundos de investimento', balance_cents: 900_900, yield_cents: 900 },
      { label: 'Renda fixa', balance_cents: 51_501, yield_cents: 501 },
      { label: 'Outros', balance_cents: 3_000, yield_cents: 0 },
    ]);
  });

  it('when a position appears twice on one day, then the last one given wins', () => {
    const report = computeYieldReport({
      snapshots: [snap('a', '2026-03-03', 10), snap('a', '2026-03-03T10:00:00-03:00', 20)],
      referenceDate: '2026-03-03',
    });
    expect(report.positions.map((p) => p.balance_cents)).toEqual([20]);
    expect(report.snapshot_days).toBe(1);
  });

  it.each([0, 51, 1.5, -1])('when the limit is %p, then it throws a RangeError', (limit) => {
    expect(() => computeYieldReport({ snapshots, referenceDate: '2026-03-03', limit })).toThrow(RangeError);
  });

  it('when the reference date is not a calendar date, then it throws a RangeError', () => {
    expect(() => computeYieldReport({ snapshots, referenceDate: '2026-02-30' })).toThrow(RangeError);
    expect(() => computeYieldReport({ snapshots, referenceDate: '2026-03-03T00:00:00Z' })).toThrow(RangeError);
  });

  it('when mapping type labels, then known types are Portuguese and the rest are Outros', () => {
    expect(investmentTypeLabel('FIXED_INCOME')).toBe('Renda fixa');
    expect(investmentTypeLabel('fixed_income')).toBe('Renda fixa');
    expect(investmentTypeLabel('EQUITY')).toBe('Ações');
    expect(investmentTypeLabel('UNHEARD_OF')).toBe('Outros');
    expect(investmentTypeLabel(null)).toBe('Outros');
  });
});

describe('computeYieldReport invariants', () => {
  const snapshotsArb = fc.array(
    fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      offset: fc.integer({ min: 0, max: 70 }),
      balance: fc.integer({ min: 0, max: 10_000_000_000 }),
      type: fc.constantFrom('FIXED_INCOME', 'MUTUAL_FUND', 'EQUITY', 'OTHER'),
    }),
    { maxLength: 120 },
  );

  it('when snapshots are random, then counts, coverage, totals and groups stay consistent', () => {
    fc.assert(
      fc.property(snapshotsArb, fc.integer({ min: 0, max: 80 }), (raw, referenceOffset) => {
        // Type is fixed per position so by_type is stable regardless of the day.
        const types = new Map(raw.map((r) => [r.id, r.type]));
        const snapshots = raw.map((r) =>
          snap(r.id, addDays('2026-01-20', r.offset), r.balance, { type: types.get(r.id) }),
        );
        const referenceDate = addDays('2026-01-20', referenceOffset);
        const report = computeYieldReport({ snapshots, referenceDate, limit: 50 });
        const days = new Set(snapshots.filter((s) => s.date <= referenceDate).map((s) => s.date));
        expect(report.snapshot_days).toBe(days.size);
        expect(report.available).toBe(days.size >= 2);
        expect(report.reason === '').toBe(report.available);
        expect(report.estimated_ready_date > (report.first_snapshot_date ?? '')).toBe(true);
        for (const period of [report.today, report.previous, report.last_7_days, report.month_to_date]) {
          const c = counts(period);
          expect(c.total).toBe(c.computed + c.new + c.closed + c.unknown);
          expect(c.missing).toBe(c.total - c.computed);
          expect(period.computable).toBe(c.computed > 0);
          expect(period.coverage_percent).toBeGreaterThanOrEqual(0);
          expect(period.coverage_percent).toBeLessThanOrEqual(100);
          if (c.total > 0) expect(period.coverage_percent).toBeCloseTo((c.computed / c.total) * 100, 2);
          if (period.from_date && period.to_date) expect(period.from_date < period.to_date).toBe(true);
        }
        const balances = report.positions.map((p) => p.balance_cents);
        expect(balances).toEqual([...balances].sort((x, y) => y - x));
        expect(report.total_balance_cents).toBe(balances.reduce((sum, b) => sum + b, 0));
        expect(report.by_type.reduce((sum, t) => sum + t.balance_cents, 0)).toBe(report.total_balance_cents);
        expect(report.by_type.reduce((sum, t) => sum + t.yield_cents, 0)).toBe(report.today.yield_cents);
        expect(report.positions.reduce((sum, p) => sum + p.yield_cents, 0)).toBe(report.today.yield_cents);
      }),
      { numRuns: 300 },
    );
  });
});

function roundTo2(value: number): number {
  return Math.round(value * 100) / 100;
}
