import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SpendingWindow } from '@finance/shared/contracts/internal/ledger-for-insights';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countsInTotals } from '../totals-currency.ts';
import { categorizedLines, twice } from './categorized-lines.ts';

/**
 * Spent cents per window in one statement: live expenses of the category (or subcategory) dated in the
 * window, a split one by its parts in that category (`categorizedLines`), transfers, bill payments and bills' previous-balance entries excluded (docs/decisions.md §10).
 */
export async function spendingByWindow(
  em: EntityManager,
  ctx: CallerContext,
  windows: SpendingWindow[],
): Promise<{ spent: Record<string, number> }> {
  const scope = contextSql(ctx, 't');
  const lines = categorizedLines(
    'transactions t',
    (line) => `${line}.amount`,
    (line) => `${line}.category_id = w.category_id
        and (w.subcategory_id is null or ${line}.subcategory_id = w.subcategory_id)
        and t.date between w."from" and w."to"
        and t.deleted_at is null and t.reconciled_at is null and t.is_expense and t.type <> 'TRANSFER'
        and not t.is_bill_payment and not t.is_previous_balance and ${countsInTotals('t')}
        and ${scope.sql}`,
  );
  const rows = await runSql<{ key: string; spent: string }>(
    em,
    `with w as (
       select * from jsonb_to_recordset(cast(? as jsonb))
         as w(key text, category_id uuid, subcategory_id uuid, "from" date, "to" date)
     )
     select w.key, coalesce(sum(l.amount), 0)::text as spent
     from w
     left join lateral (${lines}) l on true
     group by w.key`,
    [JSON.stringify(windows), ...twice(scope.params)],
  );
  return { spent: Object.fromEntries(rows.map((row) => [row.key, Number(row.spent)])) };
}
