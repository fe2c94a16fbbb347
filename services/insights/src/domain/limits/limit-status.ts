import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import type { LimitWindow } from '../limit-window.ts';

export type LimitStatus = 'OK' | 'WARNING' | 'EXCEEDED';

/** EXCEEDED from 100 % of the amount, WARNING from notification_percentage; integer math, no rounding drift. */
export function statusOf(limit: Pick<SpendingLimit, 'amount' | 'notificationPercentage'>, spent: number): LimitStatus {
  if (spent >= limit.amount) return 'EXCEEDED';
  if (spent * 100 >= limit.amount * limit.notificationPercentage) return 'WARNING';
  return 'OK';
}

export const percentageOf = (amount: number, spent: number): number => Math.round((spent * 10_000) / amount) / 100;

export const windowKey = (limitId: string, window: LimitWindow): string => `${limitId}:${window.from}`;
