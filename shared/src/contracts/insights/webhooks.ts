import Joi from 'joi';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../queue/catalogue.ts';
import {
  anyUuid,
  errorSchema,
  idParams,
  listQuery,
  nullableTimestamp,
  ownership,
  type PageQuery,
  page,
  timestamp,
} from '../common.ts';
import { defineRoute } from '../route.ts';

const TAG = 'Webhooks';

export const webhookSchema = Joi.object({
  id: anyUuid().required(),
  url: Joi.string().uri().required(),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
    .required(),
  description: Joi.string().allow(null).required(),
  status: Joi.string()
    .valid('ENABLED', 'DISABLED')
    .required()
    .description('DISABLED once its deliveries kept failing; a disabled webhook gets nothing more'),
  disabled_at: nullableTimestamp().required(),
  ...ownership,
}).label('Webhook');

const createdWebhookSchema = webhookSchema
  .keys({
    secret: Joi.string().required().description('Signing secret (`whsec_…`); shown in this answer only, never again'),
  })
  .label('CreatedWebhook');

const attemptSchema = Joi.object({
  attempt: Joi.number().integer().required(),
  manual: Joi.boolean().required().description('true for an attempt asked through the retry route'),
  status_code: Joi.number().integer().allow(null).required().description('HTTP status the receiver answered'),
  error: Joi.string().allow(null).required(),
  duration_ms: Joi.number().integer().required(),
  createdAt: timestamp().required(),
}).label('WebhookDeliveryAttempt');

export const webhookEventBodySchema = Joi.object({
  id: anyUuid().required().description('Event id: the same for every attempt and every webhook; dedupe on it'),
  type: Joi.string()
    .valid(...WEBHOOK_EVENT_TYPES)
    .required(),
  created_at: timestamp().required().description('When the change happened'),
  data: Joi.object().unknown(true).required().description('The record of the event (see each event)'),
}).label('WebhookEvent');

export const deliverySchema = Joi.object({
  id: anyUuid().required(),
  webhook_id: anyUuid().required(),
  event_id: anyUuid().required(),
  event_type: Joi.string()
    .valid(...WEBHOOK_EVENT_TYPES)
    .required(),
  status: Joi.string().valid('PENDING', 'SUCCEEDED', 'FAILED').required(),
  attempts: Joi.number().integer().required(),
  last_status_code: Joi.number().integer().allow(null).required(),
  last_error: Joi.string().allow(null).required(),
  next_attempt_at: nullableTimestamp().required().description('When the next automatic attempt runs (PENDING only)'),
  delivered_at: nullableTimestamp().required(),
  payload: webhookEventBodySchema.required().description('The body sent (the same bytes on every attempt)'),
  attempt_log: Joi.array().items(attemptSchema).required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
}).label('WebhookDelivery');

/** A new subscription: an https URL and the event types it receives. */
export interface CreateWebhookBody {
  url: string;
  events: WebhookEventType[];
  description?: string | null;
}

const createBody = Joi.object<CreateWebhookBody>({
  url: Joi.string()
    .trim()
    .max(2048)
    .uri({ scheme: ['https', 'http'] })
    .rule({ message: { 'string.uriCustomScheme': '{{#label}} deve ser uma URL https' } })
    .required()
    .description('https URL receiving the deliveries (http only where the operator allows private targets)'),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length)
    .unique()
    .required(),
  description: Joi.string().trim().max(255).allow(null, ''),
}).label('CreateWebhook');

const deliveryParams = Joi.object<{ id: string; deliveryId: string }>({
  id: anyUuid().required(),
  deliveryId: anyUuid().required(),
});

export const webhookRoutes = [
  defineRoute({
    operationId: 'createWebhook',
    method: 'post',
    path: '/v1/webhooks',
    service: 'insights',
    tag: TAG,
    summary: 'Subscribe an https URL to events',
    description:
      'Every event of the chosen types in this context is POSTed to `url` as JSON `{id, type, created_at, data}` (see the `webhooks` section), signed with the secret returned here once: header `Finance-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, plus `Finance-Event-Id`, `Finance-Event-Type` and `Finance-Delivery-Id`. A 2xx answer within 10 s is a success; anything else is retried with exponential backoff (1 min, 2 min, 4 min…) for 24 h after the event, and a webhook whose attempts keep failing (30 in a row) is disabled with a WEBHOOK_DISABLED notification. The URL must be https and resolve only to public addresses (checked here and again at each delivery, after DNS resolution): loopback, private and link-local targets are 400 unless the operator allows them. Each event is delivered once per webhook (retries resend the same event id).',
    body: createBody,
    example: { url: 'https://example.com/finance-hooks', events: ['transaction.created', 'bill.closed'] },
    responses: {
      201: { description: 'The webhook, with its signing secret (shown only now)', schema: createdWebhookSchema },
      400: { description: 'Validation error or a refused target', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'listWebhooks',
    method: 'get',
    path: '/v1/webhooks',
    service: 'insights',
    tag: TAG,
    summary: 'List the webhooks of the context',
    description: 'Oldest first; the secret is never shown again.',
    query: Joi.object<PageQuery>(listQuery),
    responses: { 200: { description: 'A page of webhooks', schema: page(webhookSchema, 'WebhookPage') } },
  }),
  defineRoute({
    operationId: 'getWebhook',
    method: 'get',
    path: '/v1/webhooks/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Show a webhook',
    params: idParams,
    responses: {
      200: { description: 'The webhook', schema: webhookSchema },
      404: { description: 'Unknown webhook or another context', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/v1/webhooks/:id',
    service: 'insights',
    tag: TAG,
    summary: 'Delete a webhook and its delivery history',
    description: 'Pending retries stop; nothing more is sent to its URL.',
    params: idParams,
    responses: {
      200: {
        description: 'Deleted',
        schema: Joi.object({ deleted: Joi.boolean().required() }).label('WebhookDeleted'),
      },
      404: { description: 'Unknown webhook or another context', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    service: 'insights',
    tag: TAG,
    summary: 'List the deliveries of a webhook, newest first, with every attempt',
    description:
      'One delivery per event; `attempt_log` lists each try (automatic or asked through the retry route) with the status the receiver answered or the connection error.',
    params: idParams,
    query: Joi.object<PageQuery>(listQuery),
    responses: {
      200: { description: 'A page of deliveries', schema: page(deliverySchema, 'WebhookDeliveryPage') },
      404: { description: 'Unknown webhook or another context', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'retryWebhookDelivery',
    method: 'post',
    path: '/v1/webhooks/:id/deliveries/:deliveryId/retry',
    service: 'insights',
    tag: TAG,
    summary: 'Send a delivery again now',
    description:
      'Queues one more attempt of the delivery (the same body and event id, a fresh signature), whatever its status; a failure goes on with the automatic retries while the 24 h window of the event lasts. 409 when the webhook is disabled.',
    params: deliveryParams,
    responses: {
      202: { description: 'The delivery, PENDING until the attempt runs', schema: deliverySchema },
      404: { description: 'Unknown webhook or delivery, or another context', schema: errorSchema },
      409: { description: 'The webhook is disabled', schema: errorSchema },
    },
  }),
];

/** What each event's `data` holds, for the `webhooks` section of the OpenAPI document. */
export const WEBHOOK_EVENT_DOCS: Record<WebhookEventType, string> = {
  'transaction.created':
    '`data.transactions`: the transactions created by one command (a series or a transfer sends all its members): id, date, amount (cents), is_expense, category_id, subcategory_id, type, and `splits` (its parts, as `GET /v1/transactions/{id}/splits` shows them) for a split one.',
  'transaction.updated': '`data.transactions`: the transactions one command changed, as they are after it.',
  'transaction.deleted': '`data.transactions`: the transactions one command deleted, as they were.',
  'bill.closed':
    '`data`: bill_id, credit_card_id, month, closing_date, due_date, balance (cents). Sent by the daily billing job once the closing date has passed.',
  'bill.overdue':
    '`data`: like bill.closed; sent by the daily billing job once the due date has passed with a balance owed.',
  'bill.paid':
    '`data`: like bill.closed, plus `payment` {transaction_id, amount, date}; sent when a payment leaves nothing owed (balance 0 or a credit, negative). A partial payment shows as transaction.created.',
  'spending_limit.warning':
    '`data`: notification_id, spending_limit_id, title, message and `data` of the SPENDING_LIMIT_WARNING notification.',
  'spending_limit.exceeded': '`data`: like spending_limit.warning, for SPENDING_LIMIT_EXCEEDED.',
  'goal.reminder': '`data`: notification_id, goal_id, title, message and `data` of the GOAL_REMINDER notification.',
  'cash_flow.shortfall':
    '`data`: notification_id, account_id, title, message and `data` (account_id, shortfall_date, balance, threshold) of the CASH_FLOW_SHORTFALL notification: the cash-flow forecast sees the account end a day below the threshold within 90 days; once per episode (again only after the projection recovered).',
  'import.completed': '`data`: job_id, connection_id, status COMPLETED and the import `result` counts.',
  'import.failed': '`data`: job_id, connection_id, status FAILED and the `error`.',
  'rule.applied': '`data`: rule_id, job_id and `updated` (transactions recategorized) once a rule ran over history.',
  'connection.revoked':
    '`data`: connection_id, institution, status REVOKED and the institution’s `reason` (`CUSTOMER_MANUALLY_REVOKED`, …): the customer revoked the consent at the institution; `POST /v1/open-banking/connections/{id}/renew` authorises it again.',
  'connection.expired':
    '`data`: like connection.revoked, status EXPIRED (`CONSENT_EXPIRED`, or the consent’s date passed).',
};

const ID = '0190a1b2-0000-7000-8000-00000000000a';
const billExample = {
  bill_id: ID,
  credit_card_id: ID,
  month: '2026-03-01',
  closing_date: '2026-03-10',
  due_date: '2026-03-17',
  balance: 4000,
};
const notificationExample = (kind: string, data: Record<string, unknown>) => ({
  notification_id: ID,
  title: kind,
  message: kind,
  data,
});
const transactionsExample = {
  transactions: [
    {
      id: ID,
      date: '2026-03-05',
      amount: 1234,
      is_expense: true,
      category_id: null,
      subcategory_id: null,
      type: 'SINGLE',
    },
    {
      id: ID,
      date: '2026-03-06',
      amount: 25000,
      is_expense: true,
      category_id: ID,
      subcategory_id: null,
      type: 'FIXED',
      splits: [
        {
          id: ID,
          amount: 18000,
          category_id: ID,
          subcategory_id: null,
          description: 'Comida',
          tag_ids: [],
          contact_id: null,
          cost_center_id: null,
        },
        {
          id: ID,
          amount: 7000,
          category_id: ID,
          subcategory_id: null,
          description: 'Limpeza',
          tag_ids: [],
          contact_id: null,
          cost_center_id: null,
        },
      ],
    },
  ],
};

/** `data` of each event in the OpenAPI examples. */
export const WEBHOOK_EVENT_EXAMPLES: Record<WebhookEventType, Record<string, unknown>> = {
  'transaction.created': transactionsExample,
  'transaction.updated': transactionsExample,
  'transaction.deleted': transactionsExample,
  'bill.closed': billExample,
  'bill.overdue': billExample,
  'bill.paid': { ...billExample, balance: 0, payment: { transaction_id: ID, amount: 4000, date: '2026-03-15' } },
  'spending_limit.warning': {
    spending_limit_id: ID,
    ...notificationExample('Limite "Lazer" em 80%', { spending_limit_id: ID, spent: 8500, amount: 10000 }),
  },
  'spending_limit.exceeded': {
    spending_limit_id: ID,
    ...notificationExample('Limite "Lazer" ultrapassado', { spending_limit_id: ID, spent: 10500, amount: 10000 }),
  },
  'goal.reminder': { goal_id: ID, ...notificationExample('Lembrete da meta "Viagem"', { goal_id: ID }) },
  'cash_flow.shortfall': {
    account_id: ID,
    ...notificationExample('Saldo previsto abaixo do limite em "Conta corrente"', {
      account_id: ID,
      shortfall_date: '2026-03-10',
      balance: -12050,
      threshold: 0,
    }),
  },
  'import.completed': { job_id: ID, connection_id: ID, status: 'COMPLETED', result: { transactions: {} }, error: null },
  'import.failed': {
    job_id: ID,
    connection_id: null,
    status: 'FAILED',
    result: null,
    error: 'Falha ao processar a importação; envie-a novamente',
  },
  'rule.applied': { rule_id: ID, job_id: ID, updated: 12 },
  'connection.revoked': {
    connection_id: ID,
    institution: 'Banco Sandbox',
    status: 'REVOKED',
    reason: 'CUSTOMER_MANUALLY_REVOKED',
  },
  'connection.expired': {
    connection_id: ID,
    institution: 'Banco Sandbox',
    status: 'EXPIRED',
    reason: 'CONSENT_EXPIRED',
  },
};

/** How a receiver checks a delivery; shown on every event of the OpenAPI `webhooks` section. */
export const WEBHOOK_SIGNATURE_DOC =
  'Signed with the webhook\'s secret: `Finance-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. Recompute the HMAC over the raw body bytes, compare in constant time and refuse a `t` more than 5 minutes old. Answer 2xx within 10 s; anything else is retried with exponential backoff for 24 h. Deduplicate on `id` (Finance-Event-Id): a retry resends the same event.';
