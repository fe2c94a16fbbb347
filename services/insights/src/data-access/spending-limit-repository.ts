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

/** A batch of every context's limits after `afterId` (id order), each with its context's zone. */
export async function limitsWithZones(
  em: EntityManager,
  afterId: string,
  size: number,
): Promise<Array<{ limit: SpendingLimit; timeZone: string }>> {
  const rows = await runSql<{ id: string; time_zone: string }>(
    em,
    `select l.id, ${zoneOfRow('l')} as time_zone from spending_limits l where l.id > ? order by l.id limit ?`,
    [afterId, size],
  );
  if (rows.length === 0) return [];
  const limits = new Map(
    (await em.find(SpendingLimitSchema, { id: { $in: rows.map((row) => row.id) } })).map((limit) => [limit.id, limit]),
  );
  return rows.flatMap((row) => {
    const limit = limits.get(row.id);
    return limit ? [{ limit, timeZone: row.time_zone }] : [];
  });
}
