import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextKey, contextSql, contextWhere, SYSTEM_CONTEXT_ID } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/postgresql';
import { CategorySchema } from './entities/category.ts';
import { SubcategorySchema } from './entities/subcategory.ts';

/** Live records the context sees: the system ones plus its own, two ranges of the context index. */
export const visibleWhere = (ctx: CallerContext) => ({
  deletedAt: null,
  contextId: { $in: [contextKey(ctx), SYSTEM_CONTEXT_ID] },
});

/** Same rows (live or not) in SQL for a table alias: the system ones and the context's own. */
export const visibleSql = (ctx: CallerContext, alias = ''): { sql: string; params: string[] } => ({
  sql: `${alias ? `${alias}.` : ''}context_id in (?, ?)`,
  params: [contextKey(ctx), SYSTEM_CONTEXT_ID],
});

/** Live records of the context only: the ones it may change. */
export const ownWhere = (ctx: CallerContext) => ({ deletedAt: null, ...contextWhere(ctx) });

export async function findVisibleCategory(em: EntityManager, ctx: CallerContext, id: string) {
  return em.findOne(CategorySchema, { id, ...visibleWhere(ctx) });
}

export async function findVisibleSubcategory(em: EntityManager, ctx: CallerContext, id: string) {
  return em.findOne(SubcategorySchema, { id, ...visibleWhere(ctx) });
}

/** One page ordered by id, one row more than asked to tell whether another page exists. */
export async function pageById<T extends { id: string }>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  limit: number,
  afterId: string | null,
): Promise<T[]> {
  const filter = (afterId ? { $and: [where, { id: { $gt: afterId } }] } : where) as FilterQuery<T>;
  return em.find(entity, filter, { orderBy: { id: 'asc' } as never, limit: limit + 1 });
}

/**
 * The live rows among `ids` of a reference table (categories, subcategories, contacts, cost_centers, tags) that
 * the context sees; `includeSystem` adds the system rows (user_id null), shared by every context.
 */
export async function liveVisibleRows(
  em: EntityManager,
  ctx: CallerContext,
  table: string,
  ids: string[],
  includeSystem: boolean,
  columns = 'id',
): Promise<Array<{ id: string; category_id?: string }>> {
  const scope = includeSystem ? visibleSql(ctx) : contextSql(ctx);
  const where = scope.sql;
  return runSql(em, `select ${columns} from ${table} where id in (?) and deleted_at is null and ${where}`, [
    ids,
    ...scope.params,
  ]);
}
