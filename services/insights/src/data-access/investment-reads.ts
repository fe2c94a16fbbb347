import type { CalendarDate } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InvestmentSnapshot } from '../domain/yield-periods.ts';

const run = runSql;

/** The context's distinct snapshot days on or before the reference date, ascending. */
export async function snapshotDays(
  em: EntityManager,
  ctx: CallerContext,
  until: CalendarDate,
): Promise<CalendarDate[]> {
  const scope = contextSql(ctx, 'p');
  const rows = await run<{ day: string }>(
    em,
    `select distinct to_char(s.date, 'YYYY-MM-DD') as day
       from investment_snapshots s join investment_positions p on p.id = s.position_id
      where ${scope.sql} and s.date <= ?
      order by day`,
    [...scope.params, until],
  );
  return rows.map((row) => row.day);
}

type RawSnapshot = {
  investment_id: string;
  name: string;
  bank_name: string;
  type: string;
  subtype: string | null;
  day: string;
  balance_cents: string;
};

/**
 * The context's snapshots dated from `from` to `until`, plus, from the materialized daily yields, the snapshot
 * before `from` of each position seen in the window (so it counts as alive across a period it skipped), in one query.
 */
export async function snapshotsInWindow(
  em: EntityManager,
  ctx: CallerContext,
  from: CalendarDate,
  until: CalendarDate,
): Promise<InvestmentSnapshot[]> {
  const scope = contextSql(ctx, 'p');
  const columns = 'p.investment_id, p.name, p.bank_name, p.type, p.subtype';
  const rows = await run<RawSnapshot>(
    em,
    `select ${columns}, to_char(s.date, 'YYYY-MM-DD') as day, s.balance_cents
       from investment_positions p join investment_snapshots s on s.position_id = p.id
      where ${scope.sql} and s.date between ? and ?
     union all
     select ${columns}, to_char(y.previous_date, 'YYYY-MM-DD') as day, y.balance_cents - y.yield_cents as balance_cents
       from investment_positions p join investment_daily_yields y on y.position_id = p.id
      where ${scope.sql} and y.date between ? and ? and y.previous_date < ?`,
    [...scope.params, from, until, ...scope.params, from, until, from],
  );
  return rows.map((row) => ({
    investmentId: row.investment_id,
    name: row.name,
    bankName: row.bank_name,
    type: row.type,
    subtype: row.subtype,
    date: row.day,
    balanceCents: Number(row.balance_cents),
  }));
}
