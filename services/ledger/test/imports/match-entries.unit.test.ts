import fc from 'fast-check';
import { type IncomingEntry, matchEntries, type StoredCandidate } from '../../src/domain/imports/match-entries.ts';

const incoming = (date: string, fields: Partial<IncomingEntry> = {}): IncomingEntry => ({
  holder: 'acc',
  amount: 500,
  is_expense: true,
  date,
  status: 'BOOKED',
  ...fields,
});
const stored = (id: string, date: string, fields: Partial<StoredCandidate> = {}): StoredCandidate => ({
  id,
  holder: 'acc',
  amount: 500,
  is_expense: true,
  date,
  sourceKeys: 'none',
  ...fields,
});

describe('the import matching rule', () => {
  it('when entries of another source are within 5 days, then the closest pair first, each used once', () => {
    const pairs = matchEntries(
      [incoming('2026-03-10'), incoming('2026-03-10'), incoming('2026-03-10')],
      [stored('far', '2026-03-14'), stored('near', '2026-03-11'), stored('out', '2026-03-16')],
    );
    expect([...pairs]).toEqual([
      [0, 'near'],
      [1, 'far'],
    ]);
  });

  it('when the holder, amount, direction or installment differ, then no pair', () => {
    const pairs = matchEntries(
      [
        incoming('2026-03-10', { holder: 'card' }),
        incoming('2026-03-10', { amount: 501 }),
        incoming('2026-03-10', { is_expense: false }),
        incoming('2026-03-10', { installment: 2 }),
      ],
      [stored('s', '2026-03-10', { installment: 3 })],
    );
    expect(pairs.size).toBe(0);
  });

  it('when the source brought the stored entry itself, then only its effected state joins a pending one', () => {
    expect(
      matchEntries([incoming('2026-03-10')], [stored('booked', '2026-03-10', { sourceKeys: 'booked' })]).size,
    ).toBe(0);
    expect([
      ...matchEntries([incoming('2026-03-10')], [stored('pending', '2026-03-10', { sourceKeys: 'unbooked' })]),
    ]).toEqual([[0, 'pending']]);
    expect(
      matchEntries(
        [incoming('2026-03-10', { status: 'PENDING' })],
        [stored('pending', '2026-03-10', { sourceKeys: 'unbooked' })],
      ).size,
    ).toBe(0);
  });

  it('when anything is matched, then each side is used at most once, every pair obeys the rule, and the answer does not depend on the order of stored entries', () => {
    const day = fc.integer({ min: 1, max: 20 }).map((d) => `2026-03-${String(d).padStart(2, '0')}`);
    const entry = fc.record({ amount: fc.constantFrom(100, 200), date: day });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.array(entry, { maxLength: 12 }), (arriving, existing) => {
        const candidates = existing.map((item, i) =>
          stored(`s${String(i).padStart(2, '0')}`, item.date, { amount: item.amount }),
        );
        const pairs = matchEntries(
          arriving.map((item) => incoming(item.date, { amount: item.amount })),
          candidates,
        );
        const used = [...pairs.values()];
        expect(new Set(used).size).toBe(used.length);
        for (const [index, id] of pairs) {
          const candidate = candidates.find((c) => c.id === id) as StoredCandidate;
          expect(candidate.amount).toBe(arriving[index].amount);
          expect(Math.abs(Date.parse(candidate.date) - Date.parse(arriving[index].date))).toBeLessThanOrEqual(
            5 * 86_400_000,
          );
        }
        expect(
          matchEntries(
            arriving.map((item) => incoming(item.date, { amount: item.amount })),
            [...candidates].reverse(),
          ),
        ).toEqual(pairs);
      }),
    );
  });
});
