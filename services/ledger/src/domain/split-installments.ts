import { apportion } from './apportion.ts';

export const MAX_INSTALLMENTS = 120;

/** Splits a total in cents into n parts of floor(total / n); the leftover cents go one each to the first parts. */
export function splitInstallments(total: number, n: number): number[] {
  if (!Number.isInteger(n) || n < 1 || n > MAX_INSTALLMENTS) {
    throw new RangeError(`installments must be an integer from 1 to ${MAX_INSTALLMENTS}: ${n}`);
  }
  if (!Number.isSafeInteger(total) || total < 1) {
    throw new RangeError(`total must be an integer number of cents ≥ 1: ${total}`);
  }
  return apportion(total, Array(n).fill(1));
}
