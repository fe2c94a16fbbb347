import { BaseSchema, contextIdProperty } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** `userId` null marks a system subcategory (of a system category). */
export const SubcategorySchema = defineEntity({
  name: 'Subcategory',
  tableName: 'subcategories',
  extends: BaseSchema,
  properties: {
    categoryId: p.uuid(),
    userId: p.uuid().nullable(),
    profileId: p.uuid().nullable(),
    contextId: contextIdProperty(),
    name: p.string(),
    isEssential: p.boolean().default(false),
    isHidden: p.boolean().default(false),
    iconName: p.string(),
    iconBackgroundColor: p.string(),
    image: p.string().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type Subcategory = InferEntity<typeof SubcategorySchema>;
