import { addDays } from '@finance/shared/calendar';
import fc from 'fast-check';
import { withSnapshotDays, yieldWindowStart } from '../src/domain/investments/yield-window.ts';
import { computeYieldReport, type InvestmentSnapshot } from '../src/domain/yield-periods.ts';

const BASE = '2026-01-15';

/** What the report's query reads: snapshots in [start, reference], plus the one before start of each position seen there. */
function windowed(snapshots: InvestmentSnapshot[], start: string, reference: string): InvestmentSnapshot[] {
  const inWindow = snapshots.filter((s) => s.date >= start && s.date <= reference);
  const seen = new Set(inWindow.map((s) => s.investmentId));
  const leadIns = new Map<string, InvestmentSnapshot>();
  for (const s of snapshots) {
    if (!seen.has(s.investmentId) || s.date >= start) continue;
    const current = leadIns.get(s.investmentId);
    if (!current || current.date < s.date) leadIns.set(s.investmentId, s);
  }
  return [...inWindow, ...leadIns.values()];
}

describe('yield report window', () => {
  it('when the days are few, then the window starts at the earliest compared day', () => {
    expect(yieldWindowStart(['2026-04-08'])).toBe('2026-04-08');
    expect(yieldWindowStart(['2026-04-07', '2026-04-08'])).toBe('2026-04-07');
    expect(yieldWindowStart(['2026-03-20', '2026-03-31', '2026-04-01', '2026-04-06', '2026-04-07', '2026-04-08'])).toBe(
      '2026-03-31',
    );
  });

  it('when the report reads only the window and the days list, then it equals the report over the whole history', () => {
    const snapshotsArb = fc.uniqueArray(
      fc.record({
        id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        offset: fc.integer({ min: 0, max: 120 }),
        balance: fc.integer({ min: 0, max: 1_000_000_000 }),
      }),
      { selector: (s) => `${s.id}:${s.offset}`, maxLength: 120 },
    );
    fc.assert(
      fc.property(
        snapshotsArb,
        fc.integer({ min: 0, max: 130 }),
        fc.integer({ min: 1, max: 50 }),
        (raw, ref, limit) => {
          const snapshots: InvestmentSnapshot[] = raw.map((s) => ({
            investmentId: s.id,
            name: `Posição ${s.id}`,
            bankName: 'Banco',
            type: s.id === 'a' ? 'EQUITY' : 'FIXED_INCOME',
            subtype: null,
            date: addDays(BASE, s.offset),
            balanceCents: s.balance,
          }));
          const referenceDate = addDays(BASE, ref);
          const days = [...new Set(snapshots.map((s) => s.date).filter((d) => d <= referenceDate))].sort();
          const full = computeYieldReport({ snapshots, referenceDate, limit });
          const rows = days.length === 0 ? [] : windowed(snapshots, yieldWindowStart(days), referenceDate);
          expect(withSnapshotDays(computeYieldReport({ snapshots: rows, referenceDate, limit }), days)).toEqual(full);
        },
      ),
      { numRuns: 500 },
    );
  });
});
