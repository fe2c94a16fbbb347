import { newId } from '@finance/shared/db/base-entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationKind } from './entities/notification.ts';

export interface NewNotification {
  userId: string;
  profileId: string | null;
  kind: NotificationKind;
  title: string;
  message: string;
  data: Record<string, unknown>;
  dedupeKey: string;
}

/** One multi-row insert; a business key already notified is skipped, so redelivery and races add nothing. */
export async function insertNotifications(em: EntityManager, rows: NewNotification[]): Promise<number> {
  if (rows.length === 0) return 0;
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, now(), now())').join(', ');
  const params = rows.flatMap((row) => [
    newId(),
    row.userId,
    row.profileId,
    row.kind,
    row.title,
    row.message,
    JSON.stringify(row.data),
    row.dedupeKey,
  ]);
  const inserted: unknown[] = await em.getConnection().execute(
    `insert into notifications (id, user_id, profile_id, kind, title, message, data, dedupe_key, created_at, updated_at)
       values ${values} on conflict (dedupe_key) do nothing returning id`,
    params,
    'all',
    em.getTransactionContext(),
  );
  return inserted.length;
}
