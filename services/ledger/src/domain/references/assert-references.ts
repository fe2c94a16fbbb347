import type { CallerContext } from '@finance/shared/context/signed-context';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { liveVisibleRows } from '../../data-access/reference-repository.ts';

export interface ReferenceIds {
  categoryId?: string | null;
  subcategoryId?: string | null;
  contactId?: string | null;
  costCenterId?: string | null;
  tagIds?: string[] | null;
}

const visibleRows = liveVisibleRows;

/**
 * Checks that every referenced id is visible in the caller's context (system categories and subcategories
 * are visible to all): an invisible id is 404 naming its field, a subcategory of another category is 400.
 * One query per kind; call it inside the command's transaction with the transaction's `em`.
 * Returns the category of the subcategory sent, so a subcategory sent alone brings its category.
 */
export async function assertReferences(
  em: EntityManager,
  ctx: CallerContext,
  refs: ReferenceIds,
): Promise<{ subcategoryParent: string | null }> {
  let subcategoryParent: string | null = null;
  if (refs.categoryId) {
    const rows = await visibleRows(em, ctx, 'categories', [refs.categoryId], true);
    if (rows.length === 0) throw notFound('Categoria não encontrada (category_id)');
  }
  if (refs.subcategoryId) {
    const rows = await visibleRows(em, ctx, 'subcategories', [refs.subcategoryId], true, 'id, category_id');
    if (rows.length === 0) throw notFound('Subcategoria não encontrada (subcategory_id)');
    if (refs.categoryId && rows[0].category_id !== refs.categoryId) {
      throw invalidField('subcategory_id', 'a subcategoria não pertence à categoria informada');
    }
    subcategoryParent = rows[0].category_id ?? null;
  }
  if (refs.contactId) {
    const rows = await visibleRows(em, ctx, 'contacts', [refs.contactId], false);
    if (rows.length === 0) throw notFound('Contato não encontrado (contact_id)');
  }
  if (refs.costCenterId) {
    const rows = await visibleRows(em, ctx, 'cost_centers', [refs.costCenterId], false);
    if (rows.length === 0) throw notFound('Centro de custo não encontrado (cost_center_id)');
  }
  const tagIds = [...new Set(refs.tagIds ?? [])];
  if (tagIds.length > 0) {
    const rows = await visibleRows(em, ctx, 'tags', tagIds, false);
    if (rows.length !== tagIds.length) throw notFound('Tag não encontrada (tag_ids)');
  }
  return { subcategoryParent };
}
