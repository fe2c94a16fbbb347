import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CategoryRef } from '@finance/shared/contracts/internal/ledger-for-insights';
import { invalidField, notFound } from '@finance/shared/errors/app-error';

/**
 * Checks through ledger that the category (and subcategory) is visible in the context: an invisible id is
 * 404 naming its field; a subcategory of another category is 400.
 */
export async function assertCategory(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  categoryId: string,
  subcategoryId: string | null = null,
): Promise<CategoryRef> {
  const refs = await ledger.categoryRefs(ctx, [categoryId], subcategoryId ? [subcategoryId] : []);
  const category = refs.categories.find((row) => row.id === categoryId);
  if (!category) throw notFound('Categoria não encontrada (category_id)');
  if (subcategoryId) {
    const subcategory = refs.subcategories.find((row) => row.id === subcategoryId);
    if (!subcategory) throw notFound('Subcategoria não encontrada (subcategory_id)');
    if (subcategory.category_id !== categoryId) {
      throw invalidField('subcategory_id', 'a subcategoria não pertence à categoria informada');
    }
  }
  return category;
}
