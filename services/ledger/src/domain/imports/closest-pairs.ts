/** A pair a matching rule allows: arriving entry `index` may be stored entry `id`, `gap` apart (smaller is closer). */
export interface Edge {
  index: number;
  id: string;
  gap: number;
}

/**
 * Each arriving entry with at most one stored one and each stored one with at most one arriving: among the pairs a
 * rule allows, the smallest gap first, then the earlier arriving entry, then the stored id. Deterministic, so a
 * retried import pairs the same way. The one pairing of every import rule (docs/decisions.md §9).
 */
export function closestPairs(edges: Edge[]): Map<number, string> {
  const sorted = [...edges].sort(
    (a, b) => a.gap - b.gap || a.index - b.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const pairs = new Map<number, string>();
  const taken = new Set<string>();
  for (const edge of sorted) {
    if (pairs.has(edge.index) || taken.has(edge.id)) continue;
    pairs.set(edge.index, edge.id);
    taken.add(edge.id);
  }
  return pairs;
}

/** Groups items by a key, keeping their order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
