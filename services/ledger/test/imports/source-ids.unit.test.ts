import fc from 'fast-check';
import { distinctEntries, type KnownEntry, pairKnownEntries } from '../../src/domain/imports/source-ids.ts';

const arriving = (key: string, amount: number, date = '2026-03-10', fields = {}) => ({
  holder: 'acc',
  key,
  amount,
  is_expense: true,
  date,
  ...fields,
});
const known = (id: string, key: string, amount: number, date = '2026-03-10', fields: Partial<KnownEntry> = {}) =>
  ({ ...arriving(key, amount, date), id, status: 'BOOKED', deleted: false, ...fields }) as KnownEntry;

describe('the source-id rule', () => {
  it('when one id names two entries of different amounts, then each arriving entry is the stored one with its content', () => {
    const pairs = pairKnownEntries(
      [arriving('fee', 26), arriving('fee', 50)],
      [known('t50', 'fee', 50), known('t26', 'fee', 26)],
    );
    expect([...pairs].map(([index, entry]) => [index, entry.id])).toEqual([
      [0, 't26'],
      [1, 't50'],
    ]);
  });

  it('when an id arrives with a second entry it never had, then the known one pairs and the new one is left', () => {
    const pairs = pairKnownEntries([arriving('fee', 50), arriving('fee', 26)], [known('t50', 'fee', 50)]);
    expect([...pairs].map(([index, entry]) => [index, entry.id])).toEqual([[0, 't50']]);
  });

  it('when the only entry an id names arrives changed by the bank, then it is that entry', () => {
    const pairs = pairKnownEntries([arriving('x', 4200)], [known('t', 'x', 4000)]);
    expect(pairs.get(0)?.id).toBe('t');
  });

  it('when two accounts share an id, then each keeps its own entry', () => {
    const pairs = pairKnownEntries(
      [arriving('x', 100, '2026-03-10', { holder: 'b' })],
      [known('ta', 'x', 100), known('tb', 'x', 100, '2026-03-10', { holder: 'b' })],
    );
    expect(pairs.get(0)?.id).toBe('tb');
  });

  it('when the same entry is listed twice, then it arrives once', () => {
    const { entries, repeated } = distinctEntries([arriving('x', 1), arriving('x', 1), arriving('x', 2)]);
    expect(entries).toHaveLength(2);
    expect(repeated).toBe(1);
  });

  it('holds for any arrivals: each stored entry pairs at most once, and only with its own holder and id', () => {
    const entry = fc.record({
      holder: fc.constantFrom('a', 'b'),
      key: fc.constantFrom('k1', 'k2'),
      amount: fc.integer({ min: 1, max: 3 }),
      is_expense: fc.boolean(),
      date: fc.constantFrom('2026-03-01', '2026-03-04', '2026-03-20'),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), fc.array(entry, { maxLength: 8 }), (incoming, stored) => {
        const rows = stored.map((s, i) => ({ ...s, id: `t${i}`, status: 'BOOKED' as const, deleted: false }));
        const pairs = pairKnownEntries(incoming, rows);
        const used = [...pairs.values()].map((row) => row.id);
        expect(new Set(used).size).toBe(used.length);
        for (const [index, row] of pairs)
          expect([row.holder, row.key]).toEqual([incoming[index].holder, incoming[index].key]);
      }),
    );
  });
});
