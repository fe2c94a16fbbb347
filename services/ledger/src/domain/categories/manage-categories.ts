import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import {
  type CategoryFields,
  type CategoryListQuery,
  type CreateCategoryBody,
  SYSTEM_READ_ONLY,
} from '@finance/shared/contracts/ledger/categories';
import { ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { conflict, notFound } from '@finance/shared/errors/app-error';
import { flushKeepingAnswer, keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Category, CategorySchema } from '../../data-access/entities/category.ts';
import { SubcategorySchema } from '../../data-access/entities/subcategory.ts';
import { findVisibleCategory, pageById, visibleWhere } from '../../data-access/reference-repository.ts';
import { categoryView } from '../references/category-view.ts';

export const DEFAULT_ICON_NAME = 'tag';
export const DEFAULT_COLOR = '#64748B';
const NOT_FOUND = 'Categoria não encontrada';

/** A visible category the context may change: system ones are 409, foreign or unknown ones 404. */
async function ownCategory(em: EntityManager, ctx: CallerContext, id: string): Promise<Category> {
  const category = await findVisibleCategory(em, ctx, id);
  if (!category) throw notFound(NOT_FOUND);
  if (category.userId == null) throw conflict(SYSTEM_READ_ONLY);
  return category;
}

export async function createCategory(em: EntityManager, ctx: CallerContext, input: CreateCategoryBody) {
  const category = em.create(CategorySchema, {
    ...ownerOf(ctx),
    name: input.name,
    isExpense: input.is_expense ?? null,
    isEssential: input.is_essential ?? false,
    isHidden: input.is_hidden ?? false,
    icon: input.icon ?? null,
    iconName: input.icon_name ?? DEFAULT_ICON_NAME,
    iconBackgroundColor: input.icon_background_color ?? DEFAULT_COLOR,
    image: input.image ?? null,
    dreGroup: null,
    deletedAt: null,
  });
  return flushKeepingAnswer(em, () => categoryView(category));
}

export async function updateCategory(em: EntityManager, ctx: CallerContext, id: string, input: CategoryFields) {
  const category = await ownCategory(em, ctx, id);
  if (input.name !== undefined) category.name = input.name;
  if (input.is_essential !== undefined) category.isEssential = input.is_essential;
  if (input.is_hidden !== undefined) category.isHidden = input.is_hidden;
  if (input.icon !== undefined) category.icon = input.icon;
  if (input.icon_name !== undefined) category.iconName = input.icon_name;
  if (input.icon_background_color !== undefined) category.iconBackgroundColor = input.icon_background_color;
  if (input.image !== undefined) category.image = input.image;
  return flushKeepingAnswer(em, () => categoryView(category));
}

/** Logical delete of the category and its subcategories together. */
export async function deleteCategory(em: EntityManager, ctx: CallerContext, id: string) {
  return em.transactional(async (tx) => {
    const category = await ownCategory(tx, ctx, id);
    const view = categoryView(category);
    const at = now();
    category.deletedAt = at;
    await tx.nativeUpdate(SubcategorySchema, { categoryId: id, deletedAt: null }, { deletedAt: at, updatedAt: at });
    return keepAnswer(view);
  });
}

export async function getCategory(em: EntityManager, ctx: CallerContext, id: string) {
  const category = await findVisibleCategory(em, ctx, id);
  if (!category) throw notFound(NOT_FOUND);
  return categoryView(category);
}

export async function listCategories(em: EntityManager, ctx: CallerContext, query: CategoryListQuery) {
  const where = {
    ...visibleWhere(ctx),
    ...(query.is_expense === undefined
      ? {}
      : { $and: [{ $or: [{ isExpense: query.is_expense }, { isExpense: null }] }] }),
  };
  const rows = await pageById(em, CategorySchema, where, query.limit, afterIdOf(query.cursor));
  return toPage(rows, query.limit, categoryView);
}
