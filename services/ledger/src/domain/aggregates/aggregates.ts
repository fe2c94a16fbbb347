/**
 * The aggregates insights reads over internal HTTP (summary, totals by subcategory, DRE, spending per window,
 * category references). Each is one read-only statement with no rule beyond it, so the statement and the
 * mapping of its rows live in `data-access/aggregates/`; this is the use-case surface the routes call.
 */
export { totalsBySubcategory } from '../../data-access/aggregates/by-subcategory.ts';
export { categoryRefs } from '../../data-access/aggregates/category-refs.ts';
export { dreTotals } from '../../data-access/aggregates/dre.ts';
export { spendingByWindow } from '../../data-access/aggregates/spending.ts';
export { summaryOf } from '../../data-access/aggregates/summary.ts';
