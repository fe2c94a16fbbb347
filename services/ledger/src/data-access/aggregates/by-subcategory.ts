import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PeriodQuery } from '@finance/shared/contracts/common';
import type { SubcategoryAggregate } from '@finance/shared/contracts/internal/ledger-for-insights';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countsInTotals } from '../totals-currency.ts';
import { categorizedLines, twice } from './categorized-lines.ts';
import { preferencesCte } from './preferences-cte.ts';

type Row = Omit<SubcategoryAggregate, 'value'> & { value: string };

/**
 * Live transactions dated in the period, account and card, summed per subcategory (or per category when
 * there is none), a split one by its parts (`categorizedLines`), uncategorized lines left out, a rolled-over bill's previous balance never (its purchases already
 * counted); transfers and bill payments only when the context's preferences include them. One statement: the grouping happens in Postgres, display fields joined after.
 */
export async function totalsBySubcategory(
  em: EntityManager,
  ctx: CallerContext,
  period: PeriodQuery,
): Promise<{ items: SubcategoryAggregate[] }> {
  const statement = subcategoryTotalsStatement(ctx, period);
  const rows = await runSql<Row>(em, statement.sql, statement.params);
  return { items: rows.map((row) => ({ ...row, value: Number(row.value) })) };
}

/** The statement of `totalsBySubcategory` (`?` placeholders, ledger schema on the search path); the bench runs it too. */
export function subcategoryTotalsStatement(
  ctx: CallerContext,
  period: PeriodQuery,
): { sql: string; params: unknown[] } {
  const config = contextSql(ctx);
  const scope = contextSql(ctx, 't');
  const lines = categorizedLines(
    'transactions t cross join cfg',
    (line) => `t.is_expense, ${line}.category_id, ${line}.subcategory_id, ${line}.amount`,
    (line) => `${scope.sql} and t.deleted_at is null and t.reconciled_at is null and ${line}.category_id is not null
         and not t.is_previous_balance and ${countsInTotals('t')}
         and t.date between cast(? as date) and cast(? as date)
         and (cfg.include_transfers or t.type <> 'TRANSFER')
         and (cfg.include_bill_payments or not t.is_bill_payment)`,
  );
  return {
    sql: `with ${preferencesCte(config.sql)},
     sums as (
       select l.is_expense, l.subcategory_id is not null as by_sub,
              coalesce(l.subcategory_id, l.category_id) as id, sum(l.amount) as value
       from (${lines}) l
       group by 1, 2, 3
     )
     select sums.id, sums.is_expense, sums.value::text as value,
            coalesce(s.name, c.name) as title,
            coalesce(s.is_essential, c.is_essential) as is_essential,
            coalesce(s.icon_name, c.icon_name) as icon_name,
            coalesce(s.icon_background_color, c.icon_background_color) as icon_background_color,
            case when sums.by_sub then s.image else c.image end as image
     from sums
     left join subcategories s on sums.by_sub and s.id = sums.id
     left join categories c on not sums.by_sub and c.id = sums.id
     order by sums.value desc, title, sums.id`,
    params: [...config.params, ...twice([...scope.params, period.start_date, period.end_date])],
  };
}
