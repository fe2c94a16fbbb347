import { iso } from '@finance/shared/db/context-scope';
import type { Notification } from '../../data-access/entities/notification.ts';

export const notificationView = (row: Notification) => ({
  id: row.id,
  kind: row.kind,
  title: row.title,
  message: row.message,
  data: row.data,
  read_at: iso(row.readAt),
  createdAt: iso(row.createdAt),
});
