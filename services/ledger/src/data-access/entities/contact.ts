import type { ContactKind } from '@finance/shared/contracts/ledger/business';
import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** A customer or supplier of a company context (business only). */
export const ContactSchema = defineEntity({
  name: 'Contact',
  tableName: 'contacts',
  extends: OwnedSchema,
  properties: {
    name: p.string(),
    kind: p.string().$type<ContactKind>(),
    document: p.string().nullable(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type Contact = InferEntity<typeof ContactSchema>;
