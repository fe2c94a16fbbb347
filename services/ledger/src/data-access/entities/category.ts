import type { DreGroup } from '@finance/shared/contracts/ledger/categories';
import { BaseSchema, contextIdProperty } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** `userId` null marks a system category: visible to every context, read-only. */
export const CategorySchema = defineEntity({
  name: 'Category',
  tableName: 'categories',
  extends: BaseSchema,
  properties: {
    userId: p.uuid().nullable(),
    profileId: p.uuid().nullable(),
    contextId: contextIdProperty(),
    name: p.string(),
    isExpense: p.boolean().nullable(),
    isEssential: p.boolean().default(false),
    isHidden: p.boolean().default(false),
    icon: p.string().nullable(),
    iconName: p.string(),
    iconBackgroundColor: p.string(),
    image: p.string().nullable(),
    dreGroup: p.string().$type<DreGroup>().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type Category = InferEntity<typeof CategorySchema>;
