import type { NotificationKind } from '@finance/shared/contracts/insights/notifications';
import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const NotificationSchema = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  extends: OwnedSchema,
  properties: {
    kind: p.string().$type<NotificationKind>(),
    title: p.string(),
    message: p.text(),
    data: p.json<Record<string, unknown>>(),
    /** Business key: limit window and level, or reminder and month; redelivery inserts nothing. */
    dedupeKey: p.string(),
    readAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type Notification = InferEntity<typeof NotificationSchema>;
