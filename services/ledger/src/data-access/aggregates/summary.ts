import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PeriodQuery } from '@finance/shared/contracts/common';
import type { Summary } from '@finance/shared/contracts/internal/ledger-for-insights';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countsInTotals } from '../totals-currency.ts';
import { countsInTotalBalance, preferencesCte } from './preferences-cte.ts';

type Row = Record<keyof Summary, string>;

/**
 * Totals of the context in one statement (docs/decisions.md §10 preferences applied):
 * - total_balance: current balances of live accounts with include_total_balance (investment accounts only
 *   with include_investments); a manual account = initial + paid income − paid expense with show_on_balance;
 * - income / expenses: live entries dated in the period; transfers and bill payments only when included;
 *   purchases of an open bill (one of `open_bill_ids`, billing's current bills, unless its entries are fully
 *   paid, which makes it PAID) only with show_open_bill; "fully paid" is billing's balance (`billFigures` in
 *   services/billing/src/domain/bills/bill-balance.ts) restated in SQL, as the rows are here and it is one statement;
 * - to_pay: unpaid account expenses in the period, plus the open bills' purchases dated in the period with
 *   include_current_bill_in_to_pay; to_receive: unpaid account income in the period;
 * - a forecast reconciled with an imported entry (reconciled_at set) counts nowhere: the real entry does.
 */
export async function summaryOf(
  em: EntityManager,
  ctx: CallerContext,
  period: PeriodQuery & { today: string; open_bill_ids?: string[] },
): Promise<Summary> {
  const statement = summaryStatement(ctx, period);
  const [row] = await runSql<Row>(em, statement.sql, statement.params);
  return {
    total_balance: Number(row.total_balance),
    income: Number(row.income),
    expenses: Number(row.expenses),
    to_pay: Number(row.to_pay),
    to_receive: Number(row.to_receive),
  };
}

/** The statement of `summaryOf` (`?` placeholders, ledger schema on the search path); the bench runs it too. */
export function summaryStatement(
  ctx: CallerContext,
  period: PeriodQuery & { open_bill_ids?: string[] },
): { sql: string; params: unknown[] } {
  const config = contextSql(ctx);
  const accounts = contextSql(ctx, 'a');
  const scope = contextSql(ctx, 't');
  return {
    sql: `with ${preferencesCte(config.sql)},
     moved as (
       select t.account_id, sum(case when t.is_expense then -t.amount else t.amount end) as amount
       from transactions t
       where ${scope.sql} and t.deleted_at is null and t.reconciled_at is null and t.paid and t.show_on_balance and t.account_id is not null
         and ${countsInTotals('t')}
       group by t.account_id
     ),
     balance as (
       select coalesce(sum(coalesce(a.bank_balance, a.initial_balance + coalesce(moved.amount, 0))), 0) as total_balance
       from accounts a cross join cfg left join moved on moved.account_id = a.id
       where ${accounts.sql} and a.deleted_at is null and ${countsInTotalBalance('a')}
     ),
     open_bills as (
       select t.bill_id from transactions t
       where ${scope.sql} and t.bill_id = any(cast(? as uuid[])) and t.deleted_at is null
       group by t.bill_id
       having not (count(*) filter (where not t.is_bill_payment) > 0
         and sum(case when t.is_expense <> t.is_bill_payment then t.amount else -t.amount end) <= 0)
     ),
     entries as (
       select t.amount, t.is_expense, t.paid, t.account_id is not null as on_account,
              t.credit_card_id is not null and coalesce(t.bill_id in (select bill_id from open_bills), false) as open_bill
       from transactions t cross join cfg
       where ${scope.sql} and t.deleted_at is null and t.reconciled_at is null and not t.is_previous_balance
         and ${countsInTotals('t')}
         and t.date between cast(? as date) and cast(? as date)
         and (cfg.include_transfers or t.type <> 'TRANSFER')
         and (cfg.include_bill_payments or not t.is_bill_payment)
     )
     select balance.total_balance::text as total_balance,
            coalesce(sum(e.amount) filter (where not e.is_expense and (cfg.show_open_bill or not e.open_bill)), 0)::text as income,
            coalesce(sum(e.amount) filter (where e.is_expense and (cfg.show_open_bill or not e.open_bill)), 0)::text as expenses,
            coalesce(sum(e.amount) filter (where e.is_expense and (
              (e.on_account and not e.paid) or (cfg.include_current_bill_in_to_pay and e.open_bill)
            )), 0)::text as to_pay,
            coalesce(sum(e.amount) filter (where not e.is_expense and e.on_account and not e.paid), 0)::text as to_receive
     from balance cross join cfg left join entries e on true
     group by balance.total_balance, cfg.show_open_bill, cfg.include_current_bill_in_to_pay`,
    params: [
      ...config.params,
      ...scope.params,
      ...accounts.params,
      ...scope.params,
      `{${(period.open_bill_ids ?? []).join(',')}}`,
      ...scope.params,
      period.start_date,
      period.end_date,
    ],
  };
}
