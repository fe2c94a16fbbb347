import Joi from 'joi';
import {
  anyUuid,
  errorSchema,
  idParams,
  listQuery,
  nullableTimestamp,
  type PageQuery,
  page,
  timestamp,
} from '../common.ts';
import { defineRoute } from '../route.ts';

/** What a notification tells: the one list the API documents and the insights service writes. */
export const NOTIFICATION_KINDS = [
  'SPENDING_LIMIT_WARNING',
  'SPENDING_LIMIT_EXCEEDED',
  'GOAL_REMINDER',
  'WEBHOOK_DISABLED',
  'CONNECTION_REVOKED',
  'CONNECTION_EXPIRED',
  'CASH_FLOW_SHORTFALL',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = Joi.object({
  id: anyUuid().required(),
  kind: Joi.string()
    .valid(...NOTIFICATION_KINDS)
    .required(),
  title: Joi.string().required(),
  message: Joi.string().required(),
  data: Joi.object()
    .required()
    .description(
      'ids involved: spending_limit_id and window dates, goal_id, webhook_id, or account_id and shortfall_date',
    ),
  read_at: nullableTimestamp().required(),
  createdAt: timestamp().required(),
}).label('Notification');

/** A page of notifications; `unread: true` keeps only unread ones. */
export type NotificationListQuery = PageQuery & { unread?: boolean };

/** Marks a notification read (`true`) or unread (`false`). */
export interface NotificationReadBody {
  read: boolean;
}

const TAG = 'Notifications';

export const notificationRoutes = [
  defineRoute({
    operationId: 'listNotifications',
    method: 'get',
    path: '/v1/notifications',
    service: 'insights',
    tag: TAG,
    summary: 'List the notifications of the context, newest first',
    description:
      'Kinds SPENDING_LIMIT_WARNING, SPENDING_LIMIT_EXCEEDED (one each per limit window) and GOAL_REMINDER (one per reminder month), WEBHOOK_DISABLED (a webhook whose deliveries kept failing was disabled), CONNECTION_REVOKED and CONNECTION_EXPIRED (a bank connection’s consent ended at the institution; renew it), CASH_FLOW_SHORTFALL (the cash-flow forecast sees an account end a day below the threshold within 90 days; once per episode). `unread=true` lists only unread ones. Made by workers from ledger events, so they may lag a moment behind a write.',
    query: Joi.object<NotificationListQuery>({ ...listQuery, unread: Joi.boolean() }),
    responses: {
      200: { description: 'A page of notifications', schema: page(notificationSchema, 'NotificationPage') },
    },
  }),
  defineRoute({
    operationId: 'updateNotification',
    method: 'patch',
    path: '/v1/notifications/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Mark a notification read or unread',
    description: '`read: true` sets `read_at` (kept when already read); `false` clears it.',
    params: idParams,
    body: Joi.object<NotificationReadBody>({ read: Joi.boolean().strict().required() }).label('UpdateNotification'),
    example: { read: true },
    responses: {
      200: { description: 'The notification', schema: notificationSchema },
      400: { description: 'Validation error', schema: errorSchema },
      404: { description: 'Unknown notification or another context', schema: errorSchema },
    },
  }),
];
