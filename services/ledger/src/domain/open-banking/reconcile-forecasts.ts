import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';
import { type ChangedRow, changedColumns, recordTransactionChanges } from '../transactions/record-changes.ts';

/** How far apart (in days) a forecast and the imported entry that settles it may be dated. */
export const RECONCILE_WINDOW_DAYS = 5;
// each pass pairs mutual best candidates; only ties between identical entries need another pass
const MAX_PASSES = 5;

/**
 * Automatic reconciliation (personal config `auto_reconcile_enabled`, PRODUCT.md §10): each newly imported
 * entry settles at most one live, unpaid, manual (no external_id), not yet reconciled forecast of the same
 * context, account (or card), direction and amount dated within 5 days of it; the closest date wins, then
 * the oldest forecast. The forecast keeps its data and gets reconciled_at/by/with; reports then count only
 * the real entry. One set-based statement per pass, inside the import's transaction; off by default.
 */
export async function reconcileForecasts(em: EntityManager, ctx: CallerContext, importedIds: string[]) {
  if (importedIds.length === 0) return [];
  const config = contextSql(ctx);
  const forecasts = contextSql(ctx, 'f');
  const reconciled: ChangedRow[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const rows = await execute<ChangedRow>(
      em,
      `with cfg as (
         select coalesce(bool_or(auto_reconcile_enabled), false) as enabled from personal_configs where ${config.sql}
       ),
       imported as (
         select i.id, i.account_id, i.credit_card_id, i.is_expense, i.amount, i.date
         from transactions i cross join cfg
         where cfg.enabled and i.id = any(cast(? as uuid[])) and i.deleted_at is null
           and not exists (select 1 from transactions r where r.reconciled_with_transaction_id = i.id)
       ),
       pairs as (
         select i.id as imported_id, f.id as forecast_id,
           row_number() over (partition by i.id order by abs(f.date - i.date), f.created_at, f.id) as forecast_rank,
           row_number() over (partition by f.id order by abs(f.date - i.date), i.date, i.id) as imported_rank
         from imported i
           join transactions f on ${forecasts.sql} and f.deleted_at is null and not f.paid and f.external_id is null
             and f.reconciled_at is null and f.is_expense = i.is_expense and f.amount = i.amount
             and (f.account_id = i.account_id or f.credit_card_id = i.credit_card_id)
             and f.date between i.date - ? and i.date + ?
       )
       update transactions f set reconciled_at = now(), reconciled_by_user_id = ?,
         reconciled_with_transaction_id = p.imported_id, updated_at = now()
       from pairs p
       where f.id = p.forecast_id and p.forecast_rank = 1 and p.imported_rank = 1
       returning ${changedColumns('f')}`,
      [
        ...config.params,
        `{${importedIds.join(',')}}`,
        ...forecasts.params,
        RECONCILE_WINDOW_DAYS,
        RECONCILE_WINDOW_DAYS,
        ctx.userId,
      ],
    );
    reconciled.push(...rows);
    if (rows.length === 0) break;
  }
  recordTransactionChanges(em, ctx, 'updated', reconciled);
  return reconciled.map((row) => row.id);
}
