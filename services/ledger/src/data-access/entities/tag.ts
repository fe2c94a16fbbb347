import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const TagSchema = defineEntity({
  name: 'Tag',
  tableName: 'tags',
  extends: OwnedSchema,
  properties: {
    name: p.string(),
    color: p.string(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type Tag = InferEntity<typeof TagSchema>;
