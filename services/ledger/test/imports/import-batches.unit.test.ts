import fc from 'fast-check';
import { batchesOf } from '../../src/domain/imports/import-batches.ts';
import type { PipelineEntry } from '../../src/domain/imports/import-entry.ts';

const entry = (holder: string, key: string, n: number) =>
  ({ account_id: holder, credit_card_id: null, key, amount: n }) as unknown as PipelineEntry;

const arbitraryEntries = fc
  .array(fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 40 })), { maxLength: 300 })
  .map((pairs) => pairs.map(([holder, id], n) => entry(holder, `id-${id}`, n)));

describe('an import in batches', () => {
  it('when entries are cut in batches, then every entry is in one batch, in its order within its id, and no batch exceeds the size but by one id’s repeats', () => {
    fc.assert(
      fc.property(arbitraryEntries, fc.integer({ min: 1, max: 50 }), (entries, size) => {
        const batches = batchesOf(entries, size);
        expect(
          batches
            .flat()
            .map((e) => e.amount)
            .sort((a, b) => a - b),
        ).toEqual(entries.map((e) => e.amount));
        const batchOf = new Map<string, number>();
        batches.forEach((batch, n) => {
          for (const e of batch) {
            const id = `${e.account_id}/${e.key}`;
            // the entries sharing a holder and id travel together
            expect(batchOf.get(id) ?? n).toBe(n);
            batchOf.set(id, n);
          }
        });
        const largestGroup = Math.max(
          0,
          ...[...batchOf.keys()].map((id) => entries.filter((e) => `${e.account_id}/${e.key}` === id).length),
        );
        for (const batch of batches) expect(batch.length).toBeLessThan(size + largestGroup);
        // only an import of nothing has an empty batch (its last, which still checks what the source listed)
        expect(batches.some((batch) => batch.length === 0)).toBe(entries.length === 0);
      }),
    );
  });

  it('when two entries share an id 3,000 entries apart, then they land in the same batch of 2,000', () => {
    const entries = Array.from({ length: 4000 }, (_, n) => entry('a', n === 3000 ? 'id-0' : `id-${n}`, n));
    const batches = batchesOf(entries);
    expect(batches.map((batch) => batch.length)).toEqual([2000, 2000]);
    expect(batches[0].filter((e) => e.key === 'id-0').map((e) => e.amount)).toEqual([0, 3000]);
  });
});
