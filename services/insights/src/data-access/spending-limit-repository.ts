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

/** Where a run of the daily check goes on from: the check day and id of the last limit it took. */
export interface LimitCursor {
  day: string;
  id: string;
}

export const FIRST_LIMIT: LimitCursor = { day: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

const CHECK_DAY = `coalesce(l.next_check_on, '-infinity'::date)`;

/**
 * A batch of every context's limits whose next daily check falls on or before `day`, after `cursor` in (check day,
 * id) order through the index of check days; each with its check day and its context's zone.
 */
export async function limitsDue(
  em: EntityManager,
  day: string,
  cursor: LimitCursor,
  size: number,
): Promise<Array<{ limit: SpendingLimit; checkDay: string; timeZone: string }>> {
  const rows = await runSql<{ id: string; check_day: string; time_zone: string }>(
    em,
    `select l.id, ${CHECK_DAY}::text as check_day, ${zoneOfRow('l')} as time_zone from spending_limits l
      where ${CHECK_DAY} <= ?::date and (${CHECK_DAY}, l.id) > (?::date, ?::uuid)
      order by ${CHECK_DAY}, l.id limit ?`,
    [day, cursor.day, cursor.id, size],
  );
  if (rows.length === 0) return [];
  const limits = new Map(
    (await em.find(SpendingLimitSchema, { id: { $in: rows.map((row) => row.id) } })).map((limit) => [limit.id, limit]),
  );
  return rows.flatMap((row) => {
    const limit = limits.get(row.id);
    return limit ? [{ limit, checkDay: row.check_day, timeZone: row.time_zone }] : [];
  });
}

/** The limits checked on `today` (of their context) are checked next on the day after. */
export async function setNextCheckDays(em: EntityManager, checked: Array<{ id: string; day: string }>) {
  if (checked.length === 0) return;
  await runSql(
    em,
    `update spending_limits l set next_check_on = c.day from jsonb_to_recordset(?::jsonb) as c(id uuid, day date)
      where l.id = c.id`,
    [JSON.stringify(checked)],
  );
}
