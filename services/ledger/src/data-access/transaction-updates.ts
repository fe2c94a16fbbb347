import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextKey, contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangedRow, changedColumns } from '../domain/transactions/record-changes.ts';

/**
 * One pass of automatic reconciliation (when the context enabled it): each imported entry and the live,
 * unpaid, manual, unreconciled forecast of the same account (or card), direction and amount within
 * `windowDays` that are each other's best candidate (closest date, then oldest) are paired; the forecasts
 * reconciled, as changed rows.
 */
export async function reconcileForecastsPass(
  em: EntityManager,
  ctx: CallerContext,
  importedIds: string[],
  windowDays: number,
): Promise<ChangedRow[]> {
  const config = contextSql(ctx);
  const forecasts = contextSql(ctx, 'f');
  return runSql<ChangedRow>(
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
    [...config.params, `{${importedIds.join(',')}}`, ...forecasts.params, windowDays, windowDays, ctx.userId],
  );
}

/**
 * Categorizes the context's transactions among `transactionIds` with their winning enabled rule (more
 * matched fields, then the most recently updated) in one UPDATE; rows already in that category are left
 * alone. The changed rows.
 */
export async function applyWinningRules(
  em: EntityManager,
  ctx: CallerContext,
  transactionIds: string[],
): Promise<ChangedRow[]> {
  const t = contextSql(ctx, 't');
  const r = contextSql(ctx, 'r');
  return runSql<ChangedRow>(
    em,
    `with winner as (
       select distinct on (t.id) t.id, r.category_id, r.subcategory_id
       from transactions t
       join categorization_rules r
         on coalesce(r.profile_id, r.user_id) = ? and ${r.sql}
        and r.deleted_at is null and r.enabled and r.is_expense = t.is_expense
        and (r.match_merchant_name is null or r.match_merchant_name = t.merchant_name_normalized)
        and (r.match_merchant_cnpj is null or r.match_merchant_cnpj = t.merchant_cnpj_digits)
       where t.id in (?) and t.deleted_at is null and ${t.sql}
       order by t.id, cardinality(r.match_fields) desc, r.updated_at desc, r.id desc
     )
     update transactions t set category_id = w.category_id, subcategory_id = w.subcategory_id, updated_at = now()
     from winner w
     where t.id = w.id
       and (t.category_id is distinct from w.category_id or t.subcategory_id is distinct from w.subcategory_id)
     returning ${changedColumns()}`,
    [contextKey(ctx), ...r.params, transactionIds, ...t.params],
  );
}
