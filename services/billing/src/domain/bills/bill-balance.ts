import type { BillTotals } from '@finance/shared/contracts/internal/ledger-for-billing';

/** The sums of one bill the rules need (cents); `recurring` is the signed net of its recurrence occurrences. */
export type BillSums = Pick<BillTotals, 'purchases' | 'credits' | 'payments'> & { recurring?: number };

/** A bill's figures in cents (docs/decisions.md §8): the one home of the balance formula. */
export interface BillFigures {
  /** purchases − credits */
  value: number;
  /** the payments' net */
  paid: number;
  /** value − paid: what the bill still owes; negative when overpaid (a credit) */
  balance: number;
}

/** The figures of a bill from its sums; a bill the ledger holds nothing of (no sums) is all zero. */
export function billFigures(sums: BillSums | undefined): BillFigures {
  const value = (sums?.purchases ?? 0) - (sums?.credits ?? 0);
  const paid = sums?.payments ?? 0;
  return { value, paid, balance: value - paid };
}

/** What a bill still owes: purchases − credits − payments; negative when overpaid (a credit). */
export const billBalance = (sums: BillSums | undefined): number => billFigures(sums).balance;
