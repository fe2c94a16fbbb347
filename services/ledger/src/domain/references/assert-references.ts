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
  const [subcategoryParent] = await assertEachReferences(em, ctx, [refs], (_, field) => field);
  return { subcategoryParent };
}

const distinct = (values: Array<string | null | undefined>) => [...new Set(values.filter((v): v is string => !!v))];

/**
 * `assertReferences` for several sets at once (a split's parts): still one query per kind, errors naming the
 * field as `fieldOf` spells it for the set (`parts[1].category_id`). The subcategories' categories, per set.
 */
export async function assertEachReferences(
  em: EntityManager,
  ctx: CallerContext,
  sets: ReferenceIds[],
  fieldOf: (index: number, field: string) => string,
): Promise<Array<string | null>> {
  const lookup = async (table: string, ids: string[], system: boolean, columns?: string) =>
    ids.length
      ? new Map((await visibleRows(em, ctx, table, ids, system, columns)).map((row) => [row.id, row]))
      : new Map();
  const check = async (
    table: string,
    key: 'categoryId' | 'contactId' | 'costCenterId',
    label: string,
    field: string,
  ) => {
    const found = await lookup(table, distinct(sets.map((set) => set[key])), table === 'categories');
    const missing = sets.findIndex((set) => set[key] && !found.has(set[key] as string));
    if (missing >= 0) throw notFound(`${label} (${fieldOf(missing, field)})`);
  };
  await check('categories', 'categoryId', 'Categoria não encontrada', 'category_id');
  const subcategories = await lookup(
    'subcategories',
    distinct(sets.map((set) => set.subcategoryId)),
    true,
    'id, category_id',
  );
  const parents = sets.map((set, index) => {
    if (!set.subcategoryId) return null;
    const row = subcategories.get(set.subcategoryId);
    if (!row) throw notFound(`Subcategoria não encontrada (${fieldOf(index, 'subcategory_id')})`);
    if (set.categoryId && row.category_id !== set.categoryId) {
      throw invalidField(fieldOf(index, 'subcategory_id'), 'a subcategoria não pertence à categoria informada');
    }
    return (row.category_id as string | undefined) ?? null;
  });
  await check('contacts', 'contactId', 'Contato não encontrado', 'contact_id');
  await check('cost_centers', 'costCenterId', 'Centro de custo não encontrado', 'cost_center_id');
  const tagIds = distinct(sets.flatMap((set) => set.tagIds ?? []));
  const tags = await lookup('tags', tagIds, false);
  const missingTag = sets.findIndex((set) => (set.tagIds ?? []).some((tag) => !tags.has(tag)));
  if (missingTag >= 0) throw notFound(`Tag não encontrada (${fieldOf(missingTag, 'tag_ids')})`);
  return parents;
}
