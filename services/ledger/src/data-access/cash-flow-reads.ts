import type { CalendarDate, Frequency } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countsInTotalBalance, preferencesCte } from './aggregates/preferences-cte.ts';
import { splitsJsonSql } from './split-json.ts';
import { countsInTotals } from './totals-currency.ts';

type Statement = { sql: string; params: unknown[] };

/**
 * A live account of the context as the forecast starts from it, with the context's preferences the forecast reads
 * (its zone and threshold); one row with a null `id` when the context has no account (the preferences still come).
 */
export interface CashFlowAccountRow {
  id: string | null;
  name: string;
  type: string | null;
  is_default: boolean;
  counts_in_total: boolean;
  initial_balance: string;
  bank_balance: string | null;
  time_zone: string | null;
  cash_flow_threshold: string;
}

/** The context's live accounts (or the one asked) and its preferences (defaults until saved: docs/decisions.md §10). */
export function cashFlowAccountsStatement(ctx: CallerContext, accountId?: string): Statement {
  const config = contextSql(ctx, 'p');
  const scope = contextSql(ctx, 'a');
  return {
    sql: `with ${preferencesCte(contextSql(ctx).sql)},
     prefs as (
       select (select p.time_zone from personal_configs p where ${config.sql}) as time_zone,
              coalesce((select p.cash_flow_threshold from personal_configs p where ${config.sql}), 0) as cash_flow_threshold
     )
     select a.id, a.name, a.type, a.is_default, ${countsInTotalBalance('a')} as counts_in_total,
            a.initial_balance::text as initial_balance, a.bank_balance::text as bank_balance,
            prefs.time_zone, prefs.cash_flow_threshold::text as cash_flow_threshold
     from cfg cross join prefs
     left join accounts a on ${scope.sql} and a.deleted_at is null${accountId ? ' and a.id = ?' : ''}
     order by a.created_at, a.id`,
    params: [
      ...contextSql(ctx).params,
      ...config.params,
      ...config.params,
      ...scope.params,
      ...(accountId ? [accountId] : []),
    ],
  };
}

export async function cashFlowAccounts(em: EntityManager, ctx: CallerContext, accountId?: string) {
  const statement = cashFlowAccountsStatement(ctx, accountId);
  return runSql<CashFlowAccountRow>(em, statement.sql, statement.params);
}

/** An unpaid account entry as the forecast moves it. */
export interface UnpaidEntryRow {
  id: string;
  account_id: string;
  date: CalendarDate;
  amount: string;
  is_expense: boolean;
  title: string;
  type: string;
  cost_center_id: string | null;
  splits: SplitPart[] | null;
}

/**
 * The context's live, unpaid account entries dated up to `end` (those dated before today are still owed) that move a
 * balance: counted on it, in BRL, not settled by reconciliation, and not bill payments (the bill's balance is paid
 * instead). Through the index of unpaid entries.
 */
export function unpaidEntriesStatement(ctx: CallerContext, end: CalendarDate, accountId?: string): Statement {
  const scope = contextSql(ctx, 't');
  return {
    sql: `select t.id, t.account_id, to_char(t.date, 'YYYY-MM-DD') as date, t.amount::text as amount, t.is_expense,
            t.title, t.type, t.cost_center_id, ${splitsJsonSql('t')} as splits
     from transactions t
     where ${scope.sql} and not t.paid and t.account_id is not null and t.deleted_at is null and t.date <= ?::date
       and t.reconciled_at is null and t.show_on_balance and not t.is_bill_payment and ${countsInTotals('t')}
       ${accountId ? 'and t.account_id = ?' : ''}
     order by t.date, t.id`,
    params: [...scope.params, end, ...(accountId ? [accountId] : [])],
  };
}

export async function unpaidEntries(em: EntityManager, ctx: CallerContext, end: CalendarDate, accountId?: string) {
  const statement = unpaidEntriesStatement(ctx, end, accountId);
  return runSql<UnpaidEntryRow>(em, statement.sql, statement.params);
}

/** An open recurrence of the context with its latest live member (the template of its next occurrences). */
export interface OpenSeriesRow {
  series_id: string;
  anchor: CalendarDate;
  frequency: Frequency;
  next_index: number;
  ends_before: CalendarDate | null;
  account_id: string | null;
  credit_card_id: string | null;
  amount: string;
  is_expense: boolean;
  title: string;
  cost_center_id: string | null;
  splits: SplitPart[] | null;
}

/**
 * The context's open recurrences (through the index of series heads; a deleted head's series goes on) with their
 * latest live member, when that counts: in BRL and on a balance.
 */
export function openSeriesStatement(ctx: CallerContext): Statement {
  const scope = contextSql(ctx, 'h');
  return {
    sql: `select r.series_id, to_char(r.anchor, 'YYYY-MM-DD') as anchor, r.frequency, r.next_index,
            to_char(r.ends_before, 'YYYY-MM-DD') as ends_before, m.account_id, m.credit_card_id,
            m.amount::text as amount, m.is_expense, m.title, m.cost_center_id, ${splitsJsonSql('m')} as splits
     from transactions h
     join recurrence_series r on r.series_id = h.id and not r.ended
     cross join lateral (
       select * from transactions m where m.connected_transaction_id = r.series_id and m.deleted_at is null
        order by m.series_index desc limit 1
     ) m
     where ${scope.sql} and h.type = 'RECURRENT' and h.series_index = 0
       and m.show_on_balance and ${countsInTotals('m')}`,
    params: scope.params,
  };
}

export async function openSeriesOf(em: EntityManager, ctx: CallerContext) {
  const statement = openSeriesStatement(ctx);
  return runSql<OpenSeriesRow>(em, statement.sql, statement.params);
}
