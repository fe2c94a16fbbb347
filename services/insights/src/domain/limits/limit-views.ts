import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import { contextToday } from '../context-today.ts';
import { countedDays, type LimitWindow, windowContaining } from '../limit-window.ts';
import { windowKey } from './limit-status.ts';
import { limitView } from './limit-view.ts';

/** What a limit's current window is made of: a limit, or the fields of one not written yet. */
export type WindowSource = Pick<SpendingLimit, 'categoryId' | 'subcategoryId' | 'startDate' | 'frequency'> & {
  id?: string;
};

/**
 * Each limit's current window (the one holding the context's today) and what it spent, from one spending call
 * (no call per limit); `spent` counts the window's entries dated up to today.
 */
export async function currentWindows(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  limits: WindowSource[],
  today?: string,
): Promise<Array<{ window: LimitWindow; spent: number }>> {
  const day = today ?? (await contextToday(ledger, ctx));
  const windows = limits.map((limit, index) => ({
    key: limit.id ?? String(index),
    limit,
    window: windowContaining(limit.startDate, limit.frequency, day),
  }));
  const spent = await ledger.spending(
    ctx,
    windows.flatMap(({ key, limit, window }) => {
      const counted = countedDays(window, day);
      if (!counted) return [];
      return [
        {
          key: windowKey(key, window),
          category_id: limit.categoryId,
          subcategory_id: limit.subcategoryId ?? null,
          from: counted.from,
          to: counted.to,
        },
      ];
    }),
  );
  return windows.map(({ key, window }) => ({ window, spent: spent[windowKey(key, window)] ?? 0 }));
}

/** Views with `current_window` for any number of limits (`currentWindows`). */
export async function limitViews(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  limits: SpendingLimit[],
  today?: string,
) {
  const current = await currentWindows(ledger, ctx, limits, today);
  return limits.map((limit, index) => limitView(limit, current[index].window, current[index].spent));
}
