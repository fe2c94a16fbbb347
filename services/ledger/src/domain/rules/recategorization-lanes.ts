/** Rows one batch of a recategorization scans (and at most changes) in one transaction. */
export const RECATEGORIZATION_BATCH = 5_000;

/** As many lanes as the matches fill batches, at most `max`, at least one. */
export const laneCount = (total: number, max: number, batchSize = RECATEGORIZATION_BATCH): number =>
  Math.max(1, Math.min(max, Math.ceil(total / batchSize)));

/**
 * The ids splitting the matches into `lanes` ranges, picked from the ids at each `1/max` of them (`max - 1` ids in
 * order): for lane boundary j the one nearest `j/lanes`. Fewer ids than that (a handful of matches, some
 * repeated and merged) make one lane.
 */
export function laneBounds(quantiles: readonly string[], max: number, lanes: number): string[] {
  if (lanes < 2 || quantiles.length !== max - 1) return [];
  return Array.from({ length: lanes - 1 }, (_, j) => quantiles[Math.round(((j + 1) * max) / lanes) - 1]);
}
