import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PeriodQuery } from '@finance/shared/contracts/common';
import type { DreGroupTotal } from '@finance/shared/contracts/internal/ledger-for-insights';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countsInTotals } from '../totals-currency.ts';
import { categorizedLines, twice } from './categorized-lines.ts';

type Row = { dre_group: string; income: string; expenses: string };

/**
 * Income and expenses per DRE group by competence date (falling back to the date), a split entry by its parts'
 * categories (`categorizedLines`), in one statement:
 * the company's mapping wins, then the category's default group (a system category's own; receita for an
 * income category, despesas_operacionais for an expense one, as GET /v2/business/dre-mapping shows), then,
 * for uncategorized entries, receita / despesas_operacionais by direction. Transfers and bill payments are not results.
 */
export async function dreTotals(
  em: EntityManager,
  ctx: CallerContext,
  period: PeriodQuery,
): Promise<{ groups: DreGroupTotal[] }> {
  const scope = contextSql(ctx, 't');
  const lines = categorizedLines(
    'transactions t',
    (line) => `t.profile_id, t.is_expense, ${line}.category_id, ${line}.amount`,
    () => `${scope.sql} and t.deleted_at is null and t.reconciled_at is null and t.type <> 'TRANSFER' and not t.is_bill_payment
       and not t.is_previous_balance and ${countsInTotals('t')}
       and coalesce(t.competence_date, t.date) between cast(? as date) and cast(? as date)`,
  );
  const rows = await runSql<Row>(
    em,
    `select coalesce(m.dre_group, c.dre_group,
              case when coalesce(c.is_expense, l.is_expense) then 'despesas_operacionais' else 'receita' end) as dre_group,
            coalesce(sum(l.amount) filter (where not l.is_expense), 0)::text as income,
            coalesce(sum(l.amount) filter (where l.is_expense), 0)::text as expenses
     from (${lines}) l
     left join categories c on c.id = l.category_id
     left join dre_mappings m on m.profile_id = l.profile_id and m.category_id = l.category_id
     group by 1`,
    twice([...scope.params, period.start_date, period.end_date]),
  );
  return {
    groups: rows.map((row) => ({
      dre_group: row.dre_group,
      income: Number(row.income),
      expenses: Number(row.expenses),
    })),
  };
}
