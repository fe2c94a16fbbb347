import { parseCalendarDate } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SpendingWindow } from '@finance/shared/contracts/internal/ledger-for-insights';
import type { DomainEvent, TransactionChanged } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import type { NewNotification } from '../../data-access/notification-writes.ts';
import { limitsOfCategories } from '../../data-access/spending-limit-repository.ts';
import { contextToday } from '../context-today.ts';
import { countedDays, type LimitWindow, windowContaining } from '../limit-window.ts';
import { day, reais } from '../notifications/notification-text.ts';
import { percentageOf, statusOf, windowKey } from './limit-status.ts';

/** The notifications a window's spending calls for: none when OK, the warning level, and EXCEEDED from 100 %. */
export function limitAlerts(limit: SpendingLimit, window: LimitWindow, spent: number): NewNotification[] {
  const status = statusOf(limit, spent);
  if (status === 'OK') return [];
  const base = {
    userId: limit.userId,
    profileId: limit.profileId ?? null,
    data: { spending_limit_id: limit.id, window_from: window.from, window_to: window.to, spent, amount: limit.amount },
  };
  const period = `${day(window.from)} a ${day(window.to)}`;
  // crossing straight past 100 % still records the warning level: one notification per level per window
  const alerts: NewNotification[] = [
    {
      ...base,
      kind: 'SPENDING_LIMIT_WARNING',
      title: `Limite "${limit.title}" em ${limit.notificationPercentage}%`,
      message: `Você já gastou ${reais(spent)} de ${reais(limit.amount)} (${percentageOf(limit.amount, spent)}%) no limite "${limit.title}" de ${period}.`,
      dedupeKey: `limit:${windowKey(limit.id, window)}:WARNING`,
    },
  ];
  if (status === 'EXCEEDED') {
    alerts.push({
      ...base,
      kind: 'SPENDING_LIMIT_EXCEEDED',
      title: `Limite "${limit.title}" ultrapassado`,
      message: `Você gastou ${reais(spent)} no limite "${limit.title}" de ${reais(limit.amount)} (${period}).`,
      dedupeKey: `limit:${windowKey(limit.id, window)}:EXCEEDED`,
    });
  }
  return alerts;
}

/**
 * Windows touched by the changed transactions dated up to the context's today, for the context's limits of
 * their categories, with their spending up to today from one ledger call; returns the notifications due
 * (inserted idempotently by the caller). An entry dated after today (a recurrence's later months) warns
 * nothing now: the daily limit job notifies its window once that day has come.
 */
export async function spendingAlertsFor(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  event: DomainEvent<TransactionChanged>,
): Promise<NewNotification[]> {
  const ctx: CallerContext = {
    userId: event.context.user_id,
    profileId: event.context.profile_id,
    business: false,
    keyId: null,
  };
  // a split transaction counts by its parts, each in its own category (docs/decisions.md §6)
  const changed = event.data.transactions
    .filter((tx) => tx.is_expense)
    .flatMap((tx) =>
      tx.splits?.length
        ? tx.splits.map((part) => ({
            date: tx.date,
            category_id: part.category_id,
            subcategory_id: part.subcategory_id,
          }))
        : [tx],
    )
    .filter((line) => line.category_id);
  const categoryIds = [...new Set(changed.map((tx) => tx.category_id as string))];
  if (categoryIds.length === 0) return [];
  const limits = await limitsOfCategories(em, ctx, categoryIds);
  if (limits.length === 0) return [];
  const today = await contextToday(ledger, ctx);
  const touched = new Map<string, { limit: SpendingLimit; window: LimitWindow }>();
  for (const limit of limits) {
    for (const tx of changed) {
      const date = parseCalendarDate(tx.date);
      if (!date || date > today || tx.category_id !== limit.categoryId) continue;
      if (limit.subcategoryId && tx.subcategory_id !== limit.subcategoryId) continue;
      const window = windowContaining(limit.startDate, limit.frequency, date);
      if (date < window.from) continue;
      touched.set(windowKey(limit.id, window), { limit, window });
    }
  }
  const windows: SpendingWindow[] = [...touched.entries()].map(([key, { limit, window }]) => ({
    key,
    category_id: limit.categoryId,
    subcategory_id: limit.subcategoryId ?? null,
    ...(countedDays(window, today) as LimitWindow),
  }));
  const spent = await ledger.spending(ctx, windows);
  return [...touched.entries()].flatMap(([key, { limit, window }]) => limitAlerts(limit, window, spent[key] ?? 0));
}
