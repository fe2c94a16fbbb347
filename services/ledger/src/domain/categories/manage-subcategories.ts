import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import {
  type CreateSubcategoryBody,
  type SubcategoryFields,
  type SubcategoryListQuery,
  SYSTEM_READ_ONLY,
} from '@finance/shared/contracts/ledger/categories';
import { ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { conflict, notFound } from '@finance/shared/errors/app-error';
import { flushKeepingAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Subcategory, SubcategorySchema } from '../../data-access/entities/subcategory.ts';
import {
  findVisibleCategory,
  findVisibleSubcategory,
  pageById,
  visibleWhere,
} from '../../data-access/reference-repository.ts';
import { subcategoryView } from '../references/category-view.ts';
import { DEFAULT_ICON_NAME } from './manage-categories.ts';

const NOT_FOUND = 'Subcategoria não encontrada';
const CATEGORY_NOT_FOUND = 'Categoria não encontrada (category_id)';

async function ownSubcategory(em: EntityManager, ctx: CallerContext, id: string): Promise<Subcategory> {
  const subcategory = await findVisibleSubcategory(em, ctx, id);
  if (!subcategory) throw notFound(NOT_FOUND);
  if (subcategory.userId == null) throw conflict(SYSTEM_READ_ONLY);
  return subcategory;
}

export async function createSubcategory(em: EntityManager, ctx: CallerContext, input: CreateSubcategoryBody) {
  const category = await findVisibleCategory(em, ctx, input.category_id);
  if (!category) throw notFound(CATEGORY_NOT_FOUND);
  const subcategory = em.create(SubcategorySchema, {
    ...ownerOf(ctx),
    categoryId: category.id,
    name: input.name,
    isEssential: input.is_essential ?? false,
    isHidden: input.is_hidden ?? false,
    iconName: input.icon_name ?? DEFAULT_ICON_NAME,
    iconBackgroundColor: input.icon_background_color ?? category.iconBackgroundColor,
    image: input.image ?? null,
    deletedAt: null,
  });
  return flushKeepingAnswer(em, () => subcategoryView(subcategory));
}

export async function updateSubcategory(em: EntityManager, ctx: CallerContext, id: string, input: SubcategoryFields) {
  const subcategory = await ownSubcategory(em, ctx, id);
  if (input.name !== undefined) subcategory.name = input.name;
  if (input.is_essential !== undefined) subcategory.isEssential = input.is_essential;
  if (input.is_hidden !== undefined) subcategory.isHidden = input.is_hidden;
  if (input.icon_name !== undefined) subcategory.iconName = input.icon_name;
  if (input.icon_background_color !== undefined) subcategory.iconBackgroundColor = input.icon_background_color;
  if (input.image !== undefined) subcategory.image = input.image;
  return flushKeepingAnswer(em, () => subcategoryView(subcategory));
}

export async function deleteSubcategory(em: EntityManager, ctx: CallerContext, id: string) {
  const subcategory = await ownSubcategory(em, ctx, id);
  const view = subcategoryView(subcategory);
  subcategory.deletedAt = now();
  return flushKeepingAnswer(em, () => view);
}

export async function getSubcategory(em: EntityManager, ctx: CallerContext, id: string) {
  const subcategory = await findVisibleSubcategory(em, ctx, id);
  if (!subcategory) throw notFound(NOT_FOUND);
  return subcategoryView(subcategory);
}

export async function listSubcategories(em: EntityManager, ctx: CallerContext, query: SubcategoryListQuery) {
  if (query.category_id && !(await findVisibleCategory(em, ctx, query.category_id))) {
    throw notFound(CATEGORY_NOT_FOUND);
  }
  const where = { ...visibleWhere(ctx), ...(query.category_id ? { categoryId: query.category_id } : {}) };
  const rows = await pageById(em, SubcategorySchema, where, query.limit, afterIdOf(query.cursor));
  return toPage(rows, query.limit, subcategoryView);
}
