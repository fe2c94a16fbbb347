import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** The card's days for bills from month `from` (`YYYY-MM-01`) until the next version. */
export interface CalendarVersion {
  from: string;
  closing_day: number;
  due_day: number;
}

export const CreditCardSchema = defineEntity({
  name: 'CreditCard',
  tableName: 'credit_cards',
  extends: OwnedSchema,
  properties: {
    name: p.string(),
    logo: p.string().nullable(),
    /** Null only for a card a bank shared alone while the context had no account. */
    accountId: p.uuid().nullable(),
    closingDay: p.integer(),
    dueDay: p.integer(),
    limit: p.bigint('number').fieldName('limit').default(0),
    /** An imported card: what its bank last said is available of the limit (shown instead of the computed one). */
    bankAvailableLimit: p.bigint('number').nullable(),
    isUnlimited: p.boolean().default(false),
    needsClosingDateReview: p.boolean().default(false),
    connectionId: p.uuid().nullable(),
    externalId: p.string().nullable(),
    deletedAt: p.datetime().columnType('timestamptz(3)').nullable(),
    /** The days as dated versions, oldest first (`docs/decisions.md` §8); null: the card's days for every month. */
    calendar: p.json<CalendarVersion[]>().nullable(),
    /** Bumped by every closing-day change and by deletion; the ledger re-checks it before writing a purchase. */
    calendarVersion: p.integer().default(0),
  },
});
export type CreditCard = InferEntity<typeof CreditCardSchema>;
