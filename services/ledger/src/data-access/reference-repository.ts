import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextWhere } from '@finance/shared/db/context-scope';
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
