import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql, contextWhere } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/postgresql';
import { CategorySchema } from './entities/category.ts';
import { SubcategorySchema } from './entities/subcategory.ts';

/** Live records the context sees: system ones (`user_id` null) plus its own. */
export const visibleWhere = (ctx: CallerContext) => ({ deletedAt: null, $or: [{ userId: null }, contextWhere(ctx)] });

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
  const scope = contextSql(ctx);
  const where = includeSystem ? `(user_id is null or (${scope.sql}))` : `(${scope.sql})`;
  return runSql(em, `select ${columns} from ${table} where id in (?) and deleted_at is null and ${where}`, [
    ids,
    ...scope.params,
  ]);
}
