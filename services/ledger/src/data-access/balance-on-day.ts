import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countsInTotals } from './totals-currency.ts';

/**
 * An account's balance at the end of `day`, as the account shows it (docs/decisions.md §7): the bank's figure for
 * an imported account, else the initial balance plus its paid, balance-counting live entries dated up to the day.
 * Null when the account is not the context's.
 */
export async function accountBalanceOn(
  em: EntityManager,
  ctx: CallerContext,
  accountId: string,
  day: string,
): Promise<number | null> {
  const scope = contextSql(ctx, 'a');
  const [row] = await runSql<{ balance: string }>(
    em,
    `select coalesce(a.bank_balance, a.initial_balance + coalesce((
         select sum(case when t.is_expense then -t.amount else t.amount end) from transactions t
         where t.account_id = a.id and t.deleted_at is null and t.paid and t.show_on_balance and t.date <= ?
           and ${countsInTotals('t')}), 0))::text as balance
     from accounts a where a.id = ? and ${scope.sql}`,
    [day, accountId, ...scope.params],
  );
  return row ? Number(row.balance) : null;
}
