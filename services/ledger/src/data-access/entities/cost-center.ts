import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** A cost center of a company context (business only). */
export const CostCenterSchema = defineEntity({
  name: 'CostCenter',
  tableName: 'cost_centers',
  extends: OwnedSchema,
  properties: {
    name: p.string(),
    code: p.string().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type CostCenter = InferEntity<typeof CostCenterSchema>;
