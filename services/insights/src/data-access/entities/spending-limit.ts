import type { LimitFrequency } from '@finance/shared/contracts/insights/spending-limits';
import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const SpendingLimitSchema = defineEntity({
  name: 'SpendingLimit',
  tableName: 'spending_limits',
  extends: OwnedSchema,
  properties: {
    title: p.string(),
    amount: p.bigint('number'),
    categoryId: p.uuid(),
    subcategoryId: p.uuid().nullable(),
    frequency: p.string().$type<LimitFrequency>(),
    startDate: p.date(),
    notificationPercentage: p.integer(),
  },
});
export type SpendingLimit = InferEntity<typeof SpendingLimitSchema>;
