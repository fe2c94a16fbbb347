import type { AccountType } from '@finance/shared/contracts/ledger/accounts';
import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const AccountSchema = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  extends: OwnedSchema,
  properties: {
    name: p.string(),
    logo: p.string(),
    /** Balance the account started with; the current balance adds its paid entries. */
    initialBalance: p.bigint('number').default(0),
    /** Balance reported by the bank for imported accounts (they show it instead of the computed one). */
    bankBalance: p.bigint('number').nullable(),
    includeTotalBalance: p.boolean().default(true),
    isDefault: p.boolean().default(false),
    type: p.string().$type<AccountType>().nullable(),
    subtype: p.string().nullable(),
    connectionId: p.uuid().nullable(),
    externalId: p.string().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type Account = InferEntity<typeof AccountSchema>;
