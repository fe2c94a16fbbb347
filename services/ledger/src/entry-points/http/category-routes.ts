import { categoryRoutes } from '@finance/shared/contracts/ledger/categories';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import {
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  updateCategory,
} from '../../domain/categories/manage-categories.ts';
import {
  createSubcategory,
  deleteSubcategory,
  getSubcategory,
  listSubcategories,
  updateSubcategory,
} from '../../domain/categories/manage-subcategories.ts';

const route = lookupIn(categoryRoutes);

export function mountCategoryRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('listCategories'), ({ query }, ctx) => listCategories(orm.em.fork(), ctx, query));
  mountRoute(router, route('createCategory'), ({ body }, ctx) => createCategory(orm.em.fork(), ctx, body));
  mountRoute(router, route('getCategory'), ({ params }, ctx) => getCategory(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('updateCategory'), ({ params, body }, ctx) =>
    updateCategory(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, route('deleteCategory'), ({ params }, ctx) => deleteCategory(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('listSubcategories'), ({ query }, ctx) => listSubcategories(orm.em.fork(), ctx, query));
  mountRoute(router, route('createSubcategory'), ({ body }, ctx) => createSubcategory(orm.em.fork(), ctx, body));
  mountRoute(router, route('getSubcategory'), ({ params }, ctx) => getSubcategory(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('updateSubcategory'), ({ params, body }, ctx) =>
    updateSubcategory(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, route('deleteSubcategory'), ({ params }, ctx) => deleteSubcategory(orm.em.fork(), ctx, params.id));
}
