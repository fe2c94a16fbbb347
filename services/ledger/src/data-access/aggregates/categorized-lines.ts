/** Where a line's amount, category and subcategory come from: the entry itself (`t`) or one of its parts (`s`). */
export type LineSource = 't' | 's';

/**
 * The lines every total by category sums (docs/decisions.md §6, splits): each live entry `where` keeps, as itself when
 * it is not split, else as its parts (`transaction_splits s`), which carry its amount in their own categories. Two
 * branches of one `union all`: the whole entries through the context's indexes as before, the split ones through
 * their own partial index, so a context without splits reads what it read before. `select(line)` and `where(line)`
 * take the alias holding the line's amount, category and subcategory; the placeholders of `where` come once per
 * branch (`twice`).
 */
export function categorizedLines(
  from: string,
  select: (line: LineSource) => string,
  where: (line: LineSource) => string,
): string {
  return `select ${select('t')} from ${from} where ${where('t')} and not t.is_split
    union all
    select ${select('s')} from ${from} join transaction_splits s on s.transaction_id = t.id
     where ${where('s')} and t.is_split`;
}

/** A branch-repeated statement's parameters: those of one branch, then again for the other. */
export const twice = <T>(params: T[]): T[] => [...params, ...params];
