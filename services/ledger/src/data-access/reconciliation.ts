import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangedRow, changedColumns } from './changed-rows-sql.ts';

/**
 * Pairs of (unpaid manual forecast, effected imported entry) the matching rule joins and that are each other's
 * best candidate (closest date, then the oldest forecast / the earliest entry): the entries are live, paid,
 * imported and not yet the reconciliation of a live forecast; the forecasts are the context's live, unpaid, manual
 * (no `external_id`), not reconciled, non-transfer entries. A forecast is an account entry (a card's are always
 * paid): the pair shares the account. `importedIds` narrows the entries (an import's own), else all. The one home
 * of the pairing, for suggestions and for automatic reconciliation.
 */
export function forecastPairsSql(ctx: CallerContext, windowDays: number, importedIds: string[] | null) {
  const f = contextSql(ctx, 'f');
  const i = contextSql(ctx, 'i');
  return {
    // `offset 0` keeps the lateral join as written: each entry probes the forecasts' index. An import's own rows are
    // not analysed yet, and the planner, seeing few, would otherwise compare every forecast with every entry
    sql: `select f.id as forecast_id, i.id as transaction_id,
         row_number() over (partition by i.id order by abs(f.date - i.date), f.created_at, f.id) as forecast_rank,
         row_number() over (partition by f.id order by abs(f.date - i.date), i.date, i.id) as entry_rank
       from transactions i
       cross join lateral (
         select f.id, f.date, f.created_at from transactions f
         where ${f.sql} and f.account_id = i.account_id and f.amount = i.amount and f.is_expense = i.is_expense
           and f.date between i.date - ? and i.date + ?
           and f.deleted_at is null and not f.paid and f.external_id is null and f.reconciled_at is null
           and f.type <> 'TRANSFER'
         offset 0
       ) f
       where ${i.sql} and i.deleted_at is null and i.paid and i.external_id is not null
         ${importedIds ? 'and i.id = any(cast(? as uuid[]))' : ''}
         and not exists (select 1 from transactions r where r.reconciled_with_transaction_id = i.id and r.deleted_at is null)`,
    params: [...f.params, windowDays, windowDays, ...i.params, ...(importedIds ? [`{${importedIds.join(',')}}`] : [])],
  };
}

/** Whether the context holds any forecast an import could settle (live, unpaid, manual, not reconciled), by index. */
export async function hasOpenForecasts(em: EntityManager, ctx: CallerContext): Promise<boolean> {
  const scope = contextSql(ctx, 'f');
  const [row] = await runSql<{ found: boolean }>(
    em,
    `select exists (select 1 from transactions f where ${scope.sql} and f.account_id is not null and not f.paid
       and f.external_id is null and f.reconciled_at is null and f.deleted_at is null) as found`,
    scope.params,
  );
  return row.found;
}

/** How many forecasts these imported entries would settle (an import's suggestions when auto-reconcile is off). */
export async function countSuggestionsFor(
  em: EntityManager,
  ctx: CallerContext,
  importedIds: string[],
  windowDays: number,
): Promise<number> {
  if (importedIds.length === 0) return 0;
  const pairs = forecastPairsSql(ctx, windowDays, importedIds);
  const [row] = await runSql<{ n: number }>(
    em,
    `select count(*)::int as n from (${pairs.sql}) p where p.forecast_rank = 1 and p.entry_rank = 1`,
    pairs.params,
  );
  return row.n;
}

/** A page of the context's suggestions, by forecast id after `after`. */
export async function selectSuggestionPage(
  em: EntityManager,
  ctx: CallerContext,
  windowDays: number,
  page: { limit: number; after: string | null },
): Promise<Array<{ forecast_id: string; transaction_id: string }>> {
  const pairs = forecastPairsSql(ctx, windowDays, null);
  return runSql(
    em,
    `select p.forecast_id, p.transaction_id from (${pairs.sql}) p
     where p.forecast_rank = 1 and p.entry_rank = 1 ${page.after ? 'and p.forecast_id > ?' : ''}
     order by p.forecast_id limit ?`,
    [...pairs.params, ...(page.after ? [page.after] : []), page.limit + 1],
  );
}

/** Whether a forecast reconciled with this entry already exists (an entry reconciles one forecast). */
export async function forecastReconciledWith(em: EntityManager, ctx: CallerContext, transactionId: string) {
  const scope = contextSql(ctx, 'r');
  const [row] = await runSql<{ id: string }>(
    em,
    `select r.id from transactions r where r.reconciled_with_transaction_id = ? and r.deleted_at is null and ${scope.sql}
     for update`,
    [transactionId, ...scope.params],
  );
  return row?.id ?? null;
}

/** Sets (or with `transactionId` null clears) a forecast's reconciliation; the row changed. */
export async function setReconciliation(
  em: EntityManager,
  ctx: CallerContext,
  forecastId: string,
  transactionId: string | null,
): Promise<ChangedRow[]> {
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set reconciled_with_transaction_id = ?::uuid,
       reconciled_at = case when ?::uuid is null then null else now() end,
       reconciled_by_user_id = case when ?::uuid is null then null else ?::uuid end, updated_at = now()
     where t.id = ? and ${scope.sql}
     returning ${changedColumns()}`,
    [transactionId, transactionId, transactionId, ctx.userId, forecastId, ...scope.params],
  );
}
