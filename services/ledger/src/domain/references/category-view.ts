import { iso } from '@finance/shared/db/context-scope';
import type { Category } from '../../data-access/entities/category.ts';
import type { Subcategory } from '../../data-access/entities/subcategory.ts';

/** The Category record of the spec, plus `is_expense`. */
export function categoryView(category: Category) {
  return {
    id: category.id,
    name: category.name,
    is_expense: category.isExpense,
    is_essential: category.isEssential,
    is_hidden: category.isHidden,
    icon: category.icon ?? null,
    icon_name: category.iconName,
    icon_background_color: category.iconBackgroundColor,
    image: category.image ?? null,
    profile_id: category.profileId ?? null,
    user_id: category.userId ?? null,
    createdAt: iso(category.createdAt),
    updatedAt: iso(category.updatedAt),
  };
}
export type CategoryView = ReturnType<typeof categoryView>;

/** The Subcategory record of the spec. */
export function subcategoryView(subcategory: Subcategory) {
  return {
    id: subcategory.id,
    category_id: subcategory.categoryId,
    name: subcategory.name,
    is_essential: subcategory.isEssential,
    is_hidden: subcategory.isHidden,
    icon_name: subcategory.iconName,
    icon_background_color: subcategory.iconBackgroundColor,
    image: subcategory.image ?? null,
    profile_id: subcategory.profileId ?? null,
    user_id: subcategory.userId ?? null,
    createdAt: iso(subcategory.createdAt),
    updatedAt: iso(subcategory.updatedAt),
  };
}
export type SubcategoryView = ReturnType<typeof subcategoryView>;
