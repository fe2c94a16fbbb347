import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextWhere } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
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
