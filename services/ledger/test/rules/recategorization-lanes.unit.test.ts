import fc from 'fast-check';
import { laneBounds, laneCount, RECATEGORIZATION_BATCH } from '../../src/domain/rules/recategorization-lanes.ts';

/** `max - 1` distinct ids in order, as the quantiles of a run's matches come back. */
const quantiles = (max: number) =>
  fc.uniqueArray(fc.uuid(), { minLength: max - 1, maxLength: max - 1 }).map((ids) => ids.sort());

describe('recategorization lanes', () => {
  it('when a run is split, then it gets one lane per batch of matches, at most the configured lanes, at least one', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.integer({ min: 1, max: 8 }), (total, max) => {
        const lanes = laneCount(total, max);
        expect(lanes).toBeGreaterThanOrEqual(1);
        expect(lanes).toBeLessThanOrEqual(max);
        // no lane without a batch's worth of matches, unless there is only one
        expect(lanes === 1 || total > (lanes - 1) * RECATEGORIZATION_BATCH).toBe(true);
      }),
    );
    expect(laneCount(0, 2)).toBe(1);
    expect(laneCount(RECATEGORIZATION_BATCH, 2)).toBe(1);
    expect(laneCount(RECATEGORIZATION_BATCH + 1, 2)).toBe(2);
    expect(laneCount(99_999, 4)).toBe(4);
  });

  it('when bounds are picked from the quantiles, then they are lanes - 1 of them, in order, each the nearest to its share', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 8 })
          .chain((max) => fc.tuple(fc.constant(max), fc.integer({ min: 1, max }), quantiles(max))),
        ([max, lanes, ids]) => {
          const bounds = laneBounds(ids, max, lanes);
          expect(bounds).toHaveLength(lanes - 1);
          // strictly increasing: the lanes are disjoint ranges and none is empty by construction
          for (let j = 1; j < bounds.length; j++) expect(bounds[j] > bounds[j - 1]).toBe(true);
          bounds.forEach((bound, j) => {
            // |share / max - (j + 1) / lanes| <= 1 / (2 max), in integers
            const share = ids.indexOf(bound) + 1;
            expect(Math.abs(2 * share * lanes - 2 * (j + 1) * max)).toBeLessThanOrEqual(lanes);
          });
        },
      ),
    );
  });

  it('when the quantiles are all the lanes wanted, then every one of them is a bound', () => {
    const ids = ['a', 'b', 'c'];
    expect(laneBounds(ids, 4, 4)).toEqual(ids);
    expect(laneBounds(ids, 4, 2)).toEqual(['b']);
    expect(laneBounds(ids, 4, 1)).toEqual([]);
  });

  it('when a handful of matches repeat their quantiles (merged), then the run is one lane', () => {
    expect(laneBounds(['a'], 4, 2)).toEqual([]);
    expect(laneBounds([], 2, 2)).toEqual([]);
  });
});
