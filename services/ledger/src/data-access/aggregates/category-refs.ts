import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CategoryRef, CategoryRefs, SubcategoryRef } from '@finance/shared/contracts/internal/ledger-for-insights';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { visibleSql } from '../reference-repository.ts';

type CategoryRow = Omit<CategoryRef, 'createdAt' | 'updatedAt'> & { created_at: Date; updated_at: Date };

/** Categories and subcategories visible to the context (system ones to all); unknown or foreign ids are absent. */
export async function categoryRefs(
  em: EntityManager,
  ctx: CallerContext,
  input: { category_ids: string[]; subcategory_ids: string[] },
): Promise<CategoryRefs> {
  const scope = visibleSql(ctx);
  const visible = `deleted_at is null and ${scope.sql}`;
  const [categories, subcategories] = await Promise.all([
    input.category_ids.length
      ? runSql<CategoryRow>(
          em,
          `select id, name, is_expense, is_essential, is_hidden, icon, icon_name, icon_background_color, image,
                  profile_id, user_id, created_at, updated_at
           from categories where id in (?) and ${visible}`,
          [input.category_ids, ...scope.params],
        )
      : [],
    input.subcategory_ids.length
      ? runSql<SubcategoryRef>(em, `select id, category_id, name from subcategories where id in (?) and ${visible}`, [
          input.subcategory_ids,
          ...scope.params,
        ])
      : [],
  ]);
  return {
    categories: categories.map(({ created_at, updated_at, ...row }) => ({
      ...row,
      createdAt: new Date(created_at).toISOString(),
      updatedAt: new Date(updated_at).toISOString(),
    })),
    subcategories,
  };
}
