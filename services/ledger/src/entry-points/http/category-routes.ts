import type { PageQuery as PageInput } from '@finance/shared/contracts/common';
import { categoryRoutes } from '@finance/shared/contracts/ledger/categories';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import {
  type CategoryInput,
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
  type SubcategoryInput,
  updateSubcategory,
} from '../../domain/categories/manage-subcategories.ts';

const route = (operationId: string) => routeById(categoryRoutes, operationId);

export function mountCategoryRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('listCategories'), (input, ctx) =>
    listCategories(orm.em.fork(), ctx, input.query as PageInput & { is_expense?: boolean }),
  );
  mountRoute(router, route('createCategory'), (input, ctx) =>
    createCategory(orm.em.fork(), ctx, input.body as CategoryInput),
  );
  mountRoute(router, route('getCategory'), (input, ctx) => getCategory(orm.em.fork(), ctx, String(input.params.id)));
  mountRoute(router, route('updateCategory'), (input, ctx) =>
    updateCategory(orm.em.fork(), ctx, String(input.params.id), input.body as CategoryInput),
  );
  mountRoute(router, route('deleteCategory'), (input, ctx) =>
    deleteCategory(orm.em.fork(), ctx, String(input.params.id)),
  );
  mountRoute(router, route('listSubcategories'), (input, ctx) =>
    listSubcategories(orm.em.fork(), ctx, input.query as PageInput & { category_id?: string }),
  );
  mountRoute(router, route('createSubcategory'), (input, ctx) =>
    createSubcategory(orm.em.fork(), ctx, input.body as SubcategoryInput),
  );
  mountRoute(router, route('getSubcategory'), (input, ctx) =>
    getSubcategory(orm.em.fork(), ctx, String(input.params.id)),
  );
  mountRoute(router, route('updateSubcategory'), (input, ctx) =>
    updateSubcategory(orm.em.fork(), ctx, String(input.params.id), input.body as SubcategoryInput),
  );
  mountRoute(router, route('deleteSubcategory'), (input, ctx) =>
    deleteSubcategory(orm.em.fork(), ctx, String(input.params.id)),
  );
}
