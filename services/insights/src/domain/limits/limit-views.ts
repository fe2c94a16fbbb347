import { todayUtc } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import { windowContaining } from '../limit-window.ts';
import { windowKey } from './limit-status.ts';
import { limitView } from './limit-view.ts';

/** Views with `current_window` for any number of limits from one ledger call (no call per limit). */
export async function limitViews(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  limits: SpendingLimit[],
  today: string = todayUtc(),
) {
  const windows = limits.map((limit) => ({ limit, window: windowContaining(limit.startDate, limit.frequency, today) }));
  const spent = await ledger.spending(
    ctx,
    windows.map(({ limit, window }) => ({
      key: windowKey(limit.id, window),
      category_id: limit.categoryId,
      subcategory_id: limit.subcategoryId ?? null,
      from: window.from,
      to: window.to,
    })),
  );
  return windows.map(({ limit, window }) => limitView(limit, window, spent[windowKey(limit.id, window)] ?? 0));
}
