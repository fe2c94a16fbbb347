import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { NotificationListQuery } from '@finance/shared/contracts/insights/notifications';
import { contextWhere } from '@finance/shared/db/context-scope';
import { afterTimeIdOf, encodeCursor } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotificationSchema } from '../../data-access/entities/notification.ts';
import { notificationView } from './notification-view.ts';

const NOT_FOUND = 'Notificação não encontrada';

/** Newest first; the cursor carries (createdAt, id) of the last row. */
export async function listNotifications(em: EntityManager, ctx: CallerContext, query: NotificationListQuery) {
  const after = afterTimeIdOf(query.cursor);
  const rows = await em.find(
    NotificationSchema,
    {
      ...contextWhere(ctx),
      ...(query.unread ? { readAt: null } : {}),
      ...(after
        ? { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }] }
        : {}),
    },
    { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], limit: query.limit + 1 },
  );
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return {
    data: items.map(notificationView),
    next_cursor: rows.length > query.limit ? encodeCursor([last.createdAt.toISOString(), last.id]) : null,
  };
}

export async function markNotification(em: EntityManager, ctx: CallerContext, id: string, read: boolean) {
  return em.transactional(async (tx) => {
    const row = await tx.findOne(NotificationSchema, { id, ...contextWhere(ctx) });
    if (!row) throw notFound(NOT_FOUND);
    // a second `read: true` keeps the first reading time
    row.readAt = read ? (row.readAt ?? now()) : null;
    await tx.flush();
    return keepAnswer(notificationView(row));
  });
}
