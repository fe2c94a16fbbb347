import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const CreditCardSchema = defineEntity({
  name: 'CreditCard',
  tableName: 'credit_cards',
  extends: OwnedSchema,
  properties: {
    name: p.string(),
    logo: p.string().nullable(),
    accountId: p.uuid(),
    closingDay: p.integer(),
    dueDay: p.integer(),
    limit: p.bigint('number').fieldName('limit').default(0),
    isUnlimited: p.boolean().default(false),
    needsClosingDateReview: p.boolean().default(false),
    connectionId: p.uuid().nullable(),
    externalId: p.string().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type CreditCard = InferEntity<typeof CreditCardSchema>;
