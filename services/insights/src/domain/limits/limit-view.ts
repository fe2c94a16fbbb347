import { iso } from '@finance/shared/db/context-scope';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import type { LimitWindow } from '../limit-window.ts';
import { percentageOf, statusOf } from './limit-status.ts';

export function limitView(limit: SpendingLimit, window: LimitWindow, spent: number) {
  return {
    id: limit.id,
    title: limit.title,
    amount: limit.amount,
    category_id: limit.categoryId,
    subcategory_id: limit.subcategoryId ?? null,
    frequency: limit.frequency,
    start_date: limit.startDate,
    notification_percentage: limit.notificationPercentage,
    current_window: {
      from: window.from,
      to: window.to,
      spent,
      percentage: percentageOf(limit.amount, spent),
      status: statusOf(limit, spent),
    },
    profile_id: limit.profileId ?? null,
    user_id: limit.userId,
    createdAt: iso(limit.createdAt),
    updatedAt: iso(limit.updatedAt),
  };
}
