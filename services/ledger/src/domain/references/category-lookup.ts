import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CategorySchema } from '../../data-access/entities/category.ts';
import { visibleWhere } from '../../data-access/reference-repository.ts';
import { type CategoryView, categoryView } from './category-view.ts';

/**
 * The spec's Category records of the given ids visible in the context (system ones included), in one
 * query; unknown, deleted or foreign ids are simply absent from the map.
 */
export async function findCategoriesByIds(
  em: EntityManager,
  ctx: CallerContext,
  ids: readonly string[],
): Promise<Map<string, CategoryView>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await em.find(CategorySchema, { id: { $in: unique }, ...visibleWhere(ctx) });
  return new Map(rows.map((row) => [row.id, categoryView(row)]));
}
