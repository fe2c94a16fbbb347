import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangedRow } from '../../data-access/changed-rows-sql.ts';
import { reconcileForecastsPass } from '../../data-access/transaction-updates.ts';
import { MATCH_WINDOW_DAYS } from '../imports/match-entries.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';

/** How far apart (in days) a forecast and the imported entry that settles it may be dated: the import matching rule's. */
export const RECONCILE_WINDOW_DAYS = MATCH_WINDOW_DAYS;
// each pass pairs mutual best candidates; only ties between identical entries need another pass
const MAX_PASSES = 5;

/**
 * Automatic reconciliation (personal config `auto_reconcile_enabled`, docs/decisions.md §10): each newly imported
 * entry settles at most one live, unpaid, manual (no external_id), not yet reconciled forecast of the same
 * context, account (or card), direction and amount dated within 5 days of it; the closest date wins, then
 * the oldest forecast. The forecast keeps its data and gets reconciled_at/by/with; reports then count only
 * the real entry. One set-based statement per pass, inside the import's transaction; off by default.
 */
export async function reconcileForecasts(em: EntityManager, ctx: CallerContext, importedIds: string[]) {
  if (importedIds.length === 0) return [];
  const reconciled: ChangedRow[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const rows = await reconcileForecastsPass(em, ctx, importedIds, RECONCILE_WINDOW_DAYS);
    reconciled.push(...rows);
    if (rows.length === 0) break;
  }
  recordTransactionChanges(em, ctx, 'updated', reconciled);
  return reconciled.map((row) => row.id);
}
