import { TOTALS_CURRENCY } from '@finance/shared/currencies';

/**
 * The one home of "totals are in BRL and count BRL entries only": the condition every balance, summary,
 * report and spending-window sum adds. An entry in another currency keeps its own `currency` in reads
 * but is left out of those sums (no conversion).
 */
export const countsInTotals = (alias?: string): string => `${alias ? `${alias}.` : ''}currency = '${TOTALS_CURRENCY}'`;
