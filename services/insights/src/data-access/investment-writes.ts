import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ImportedPosition } from '../domain/investments/investments-payload.ts';

const run = runSql;

/** Inserts new positions and updates changed ones in one statement; an unchanged position is not touched. */
export async function upsertPositions(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  positions: ImportedPosition[],
): Promise<void> {
  const rows = positions.map((position) => ({
    id: newId(),
    investment_id: position.investment_id,
    name: position.name,
    bank_name: position.bank_name,
    type: position.type,
    subtype: position.subtype,
  }));
  await run(
    em,
    `insert into investment_positions
       (id, user_id, profile_id, connection_id, investment_id, name, bank_name, type, subtype, created_at, updated_at)
     select i.id, ?, ?, ?, i.investment_id, i.name, i.bank_name, i.type, i.subtype, now(), now()
       from jsonb_to_recordset(cast(? as jsonb))
         as i(id uuid, investment_id text, name text, bank_name text, type text, subtype text)
     on conflict (context_id, investment_id) do update set
       connection_id = excluded.connection_id, name = excluded.name, bank_name = excluded.bank_name,
       type = excluded.type, subtype = excluded.subtype, updated_at = now()
     where (investment_positions.connection_id, investment_positions.name, investment_positions.bank_name,
            investment_positions.type, investment_positions.subtype)
       is distinct from (excluded.connection_id, excluded.name, excluded.bank_name, excluded.type, excluded.subtype)`,
    [ctx.userId, ctx.profileId, connectionId, JSON.stringify(rows)],
  );
}

/**
 * Inserts new snapshots and corrects changed balances of the context's positions; the same day again changes nothing.
 * The positions are marked pending until their daily yields are materialized (`materializePositionYields`).
 */
export async function upsertSnapshots(
  em: EntityManager,
  ctx: CallerContext,
  positions: ImportedPosition[],
): Promise<void> {
  const rows = positions.flatMap((position) =>
    position.snapshots.map((snapshot) => ({
      investment_id: position.investment_id,
      date: snapshot.date,
      balance_cents: snapshot.balance_cents,
    })),
  );
  if (rows.length === 0) return;
  const scope = contextSql(ctx, 'p');
  await run(
    em,
    `insert into investment_snapshots (position_id, date, balance_cents, created_at, updated_at)
     select p.id, s.date, s.balance_cents, now(), now()
       from jsonb_to_recordset(cast(? as jsonb)) as s(investment_id text, date date, balance_cents bigint)
       join investment_positions p on p.investment_id = s.investment_id and ${scope.sql}
     on conflict (position_id, date) do update set balance_cents = excluded.balance_cents, updated_at = now()
     where investment_snapshots.balance_cents is distinct from excluded.balance_cents`,
    [JSON.stringify(rows), ...scope.params],
  );
  await run(
    em,
    `update investment_positions p set yields_pending = true where ${scope.sql} and p.investment_id in (?) and not p.yields_pending`,
    [...scope.params, [...new Set(rows.map((row) => row.investment_id))]],
  );
}

/** Each snapshot with the position's previous one: yield = balance − previous balance (lag over the position's days). */
const dailyYieldsSelect = (positionFilter: string) => `
  select d.position_id, d.date, d.balance_cents - d.previous_balance as yield_cents, d.previous_date, d.balance_cents,
         now() as created_at, now() as updated_at
    from (select s.position_id, s.date, s.balance_cents,
                 lag(s.date) over w as previous_date, lag(s.balance_cents) over w as previous_balance
            from investment_snapshots s
           where ${positionFilter}
          window w as (partition by s.position_id order by s.date)) d
   where d.previous_date is not null`;

const INSERT_YIELDS =
  'insert into investment_daily_yields (position_id, date, yield_cents, previous_date, balance_cents, created_at, updated_at)';

/** Recomputes the daily yields of the given positions of the context (a corrected or back-filled day moves its neighbours). */
export async function materializePositionYields(
  em: EntityManager,
  ctx: CallerContext,
  investmentIds: string[],
): Promise<void> {
  if (investmentIds.length === 0) return;
  const scope = contextSql(ctx, 'p');
  await run(
    em,
    `${INSERT_YIELDS}
     ${dailyYieldsSelect(`s.position_id in (select p.id from investment_positions p where ${scope.sql} and p.investment_id in (?))`)}
     on conflict (position_id, date) do update set
       yield_cents = excluded.yield_cents, previous_date = excluded.previous_date,
       balance_cents = excluded.balance_cents, updated_at = now()
     where (investment_daily_yields.yield_cents, investment_daily_yields.previous_date, investment_daily_yields.balance_cents)
       is distinct from (excluded.yield_cents, excluded.previous_date, excluded.balance_cents)`,
    [...scope.params, investmentIds],
  );
  await run(
    em,
    `update investment_positions p set yields_pending = false where ${scope.sql} and p.investment_id in (?) and p.yields_pending`,
    [...scope.params, investmentIds],
  );
}

/** A batch of positions, of any context, whose snapshots changed without their daily yields (indexed). */
export async function positionsWithPendingYields(em: EntityManager, size: number): Promise<string[]> {
  const rows = await run<{ id: string }>(
    em,
    'select id from investment_positions where yields_pending order by id limit ? for update skip locked',
    [size],
  );
  return rows.map((row) => row.id);
}

/** Adds the daily yields these positions miss, rows already there left alone, and clears their pending mark. */
export async function materializeMissingYields(em: EntityManager, positionIds: string[]): Promise<number> {
  if (positionIds.length === 0) return 0;
  const inserted = await run(
    em,
    `${INSERT_YIELDS}
     ${dailyYieldsSelect('s.position_id in (?)')}
       and not exists (select 1 from investment_daily_yields y where y.position_id = d.position_id and y.date = d.date)
     on conflict (position_id, date) do nothing
     returning position_id`,
    [positionIds],
  );
  await run(em, 'update investment_positions set yields_pending = false where id in (?)', [positionIds]);
  return inserted.length;
}
