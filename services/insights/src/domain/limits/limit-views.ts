import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import { contextToday } from '../context-today.ts';
import { countedDays, windowContaining } from '../limit-window.ts';
import { windowKey } from './limit-status.ts';
import { limitView } from './limit-view.ts';

/**
 * Views with `current_window` (the window holding the context's today) for any number of limits from one
 * spending call (no call per limit); `spent` counts the window's entries dated up to today.
 */
export async function limitViews(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  limits: SpendingLimit[],
  today?: string,
) {
  const day = today ?? (await contextToday(ledger, ctx));
  const windows = limits.map((limit) => ({ limit, window: windowContaining(limit.startDate, limit.frequency, day) }));
  const spent = await ledger.spending(
    ctx,
    windows.flatMap(({ limit, window }) => {
      const counted = countedDays(window, day);
      if (!counted) return [];
      return [
        {
          key: windowKey(limit.id, window),
          category_id: limit.categoryId,
          subcategory_id: limit.subcategoryId ?? null,
          from: counted.from,
          to: counted.to,
        },
      ];
    }),
  );
  return windows.map(({ limit, window }) => limitView(limit, window, spent[windowKey(limit.id, window)] ?? 0));
}
