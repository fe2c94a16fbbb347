import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextWhere } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { zoneOfRow } from './context-time-zones.ts';
import { type SpendingLimit, SpendingLimitSchema } from './entities/spending-limit.ts';

export const findLimit = (em: EntityManager, ctx: CallerContext, id: string): Promise<SpendingLimit | null> =>
  em.findOne(SpendingLimitSchema, { id, ...contextWhere(ctx) });

export const listLimitsPage = (em: EntityManager, ctx: CallerContext, limit: number, afterId: string | null) =>
  em.find(
    SpendingLimitSchema,
    { ...contextWhere(ctx), ...(afterId ? { id: { $gt: afterId } } : {}) },
    { orderBy: { id: 'asc' }, limit: limit + 1 },
  );

export const limitsOfCategories = (em: EntityManager, ctx: CallerContext, categoryIds: string[]) =>
  em.find(SpendingLimitSchema, { ...contextWhere(ctx), categoryId: { $in: categoryIds } }, { orderBy: { id: 'asc' } });

/** Where a run of the daily check goes on from: the check instant and id of the last limit it took. */
export interface LimitCursor {
  at: string;
  id: string;
}

export const FIRST_LIMIT: LimitCursor = { at: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

const CHECK_AT = `coalesce(l.next_check_at, '-infinity'::timestamptz)`;

/**
 * A batch of every context's limits whose next daily check (their context's next midnight) is due by `until`, after
 * `cursor` in (check instant, id) order through the index of check instants; each with its context's zone.
 */
export async function limitsDue(
  em: EntityManager,
  until: string,
  cursor: LimitCursor,
  size: number,
): Promise<Array<{ limit: SpendingLimit; checkAt: string; timeZone: string }>> {
  const rows = await runSql<{ id: string; check_at: string; time_zone: string }>(
    em,
    `select l.id, ${CHECK_AT}::text as check_at, ${zoneOfRow('l')} as time_zone from spending_limits l
      where ${CHECK_AT} <= ?::timestamptz and (${CHECK_AT}, l.id) > (?::timestamptz, ?::uuid)
      order by ${CHECK_AT}, l.id limit ?`,
    [until, cursor.at, cursor.id, size],
  );
  if (rows.length === 0) return [];
  const limits = new Map(
    (await em.find(SpendingLimitSchema, { id: { $in: rows.map((row) => row.id) } })).map((limit) => [limit.id, limit]),
  );
  return rows.flatMap((row) => {
    const limit = limits.get(row.id);
    return limit ? [{ limit, checkAt: row.check_at, timeZone: row.time_zone }] : [];
  });
}

/** Each limit is checked next when `day` begins in its context's zone. */
export async function setNextChecks(em: EntityManager, checked: Array<{ id: string; day: string }>) {
  if (checked.length === 0) return;
  await runSql(
    em,
    `update spending_limits l set next_check_at = c.day::timestamp at time zone ${zoneOfRow('l')}
       from jsonb_to_recordset(?::jsonb) as c(id uuid, day date) where l.id = c.id`,
    [JSON.stringify(checked)],
  );
}
