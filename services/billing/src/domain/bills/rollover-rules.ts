import { addMonthsClamped, type CalendarDate } from '@finance/shared/calendar';
import { type BillSums, billBalance } from './bill-balance.ts';

/**
 * The previous-balance entry a remainder becomes in the next bill: an expense for a debt, a credit for an
 * overpayment, nothing when the bill is settled exactly.
 */
export function carryOf(remainder: number): { amount: number; is_expense: boolean } | null {
  if (remainder === 0) return null;
  return { amount: Math.abs(remainder), is_expense: remainder > 0 };
}

/**
 * The month a remainder goes to: the first month after the source whose bill the rollover has not handled
 * yet (a bill already handled would never pass it on, and the debt would stop short of the open bill).
 */
export function carryTargetMonth(source: CalendarDate, handledMonths: Set<string>): CalendarDate {
  let month = addMonthsClamped(source, 1);
  // the bound only guards bad data: handled months are past months of one card
  for (let step = 0; step < 12_000 && handledMonths.has(month); step++) month = addMonthsClamped(month, 1);
  return month;
}

/**
 * What one bill holds of the card's limit: its remainder, except that a bill not open yet holds no
 * recurrence occurrence (a subscription is charged when its bill opens; purchases and the remaining
 * installments of parcelled ones are held at once).
 */
export const heldBy = (sums: BillSums, open: boolean): number => billBalance(sums) - (open ? 0 : (sums.recurring ?? 0));

/**
 * How much above what is owed a payment may go (the excess becomes a credit on the next bill): the card's
 * limit, or R$ 1.000.000,00 for an unlimited card.
 */
export const UNLIMITED_OVERPAYMENT_BOUND = 100_000_000;
export const overpaymentBound = (card: { limit: number; isUnlimited: boolean }): number =>
  card.isUnlimited ? UNLIMITED_OVERPAYMENT_BOUND : card.limit;
