import Joi from 'joi';
import { isValidCpf } from '../../cpf.ts';
import { errorSchema, idParams, page } from '../common.ts';
import { defineRoute } from '../route.ts';
import { connectionSchema } from './open-banking.ts';

const TAG = 'Open banking';

/** `POST /v1/open-banking/connections` and `.../renew`: the institution, where the browser ends, whose data. */
export interface CreateConnectionBody {
  institution_id: string;
  redirect_uri?: string;
  cpf?: string;
}

/** `POST /v1/open-banking/connections/{id}/item`: the Pluggy item the front end's widget created. */
export interface AttachItemBody {
  item_id: string;
}

/** A Pluggy webhook: the event and its item (other fields pass unread). */
export interface PluggyWebhookBody {
  event: string;
  itemId?: string;
}

/** The secret of the webhook URL Pluggy was given (PLUGGY_WEBHOOK_URL). */
export interface PluggyWebhookQuery {
  token?: string;
}

export interface RenewConnectionBody {
  redirect_uri?: string;
  cpf?: string;
}

/** What the institution sends the customer's browser back with: a signed JARM `response`, or an error. */
export interface CallbackQuery {
  response?: string;
  state?: string;
  code?: string;
  error?: string;
  error_description?: string;
}

const redirectUri = () =>
  Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2048)
    .description(
      'Where the customer’s browser goes once the institution answered (303 with `connection_id` and `status`, plus `error` when it failed); without it the callback answers JSON. It must lie under one of this deployment’s front-end return addresses (same origin, under its path; https in production; no credentials, control characters or backslashes): anything else is 400 on `redirect_uri`, before anything reaches the institution',
    );
const cpf = () =>
  Joi.string()
    .pattern(/^\d{11}$/, 'CPF')
    // eleven digits is the pattern's to say: this answers only for the check digits
    .custom((value: string, helpers) =>
      !/^\d{11}$/.test(value) || isValidCpf(value)
        ? value
        : helpers.message({ custom: '{{#label}} não é um CPF válido (dígitos verificadores)' }),
    )
    .description(
      'The customer’s CPF (11 digits with valid check digits; 400 otherwise, before anything reaches the institution), which the institution checks against who logs in; optional where the institution configuration names a test customer',
    );

export const institutionSchema = Joi.object({
  id: Joi.string().required(),
  name: Joi.string().required(),
  provider: Joi.string()
    .valid('open_finance', 'pluggy')
    .required()
    .description(
      'How the connection reaches it: `open_finance` (the callback completes it) or `pluggy` (the front end opens Pluggy Connect with the `connect_token`, then sends the item)',
    ),
}).label('Institution');

export const callbackAnswerSchema = Joi.object({
  connection_id: Joi.string().guid().required(),
  status: Joi.string().required(),
  message: Joi.string().required(),
}).label('ConnectionCallback');

const bankUnavailable = {
  description: 'The institution answered something the documents do not allow, or did not answer in time',
  schema: errorSchema,
};

export const connectionRoutes = [
  defineRoute({
    operationId: 'listOpenBankingInstitutions',
    method: 'get',
    path: '/v1/open-banking/institutions',
    service: 'ledger',
    tag: TAG,
    summary: 'The institutions a connection can be made to',
    description:
      'The Open Finance Brasil institutions this deployment is registered with (its configuration), by name, all in one page (`next_cursor` is null); `id` is what `POST /v1/open-banking/connections` takes. In development the list has "Banco Sandbox", the local test institution.',
    responses: { 200: { description: 'The institutions', schema: page(institutionSchema, 'InstitutionPage') } },
  }),
  defineRoute({
    operationId: 'createOpenBankingConnection',
    method: 'post',
    path: '/v1/open-banking/connections',
    service: 'ledger',
    tag: TAG,
    summary: 'Start a connection to an institution',
    description: [
      'Creates the data-sharing consent at the institution (accounts, balances and transactions; cards with their bills, limits and transactions; investments; 12 months) and answers the connection `AWAITING_AUTHORISATION` with the `authorization_url` the customer opens (a pushed authorization request: it is valid for a few minutes; `POST .../{id}/renew` makes another).',
      'The institution then sends the customer’s browser to this API’s callback, which completes the connection: it becomes `ACTIVE` and its first sync (12 months of history) is queued. Nothing is written when the institution refuses or fails: 404 for an unknown institution, 502 when it answered what the documents do not allow, 504 when it did not answer in time.',
    ].join('\n\n'),
    body: Joi.object<CreateConnectionBody>({
      institution_id: Joi.string().max(200).required(),
      redirect_uri: redirectUri(),
      cpf: cpf(),
    }),
    example: { institution_id: 'banco-sandbox', cpf: '76109277673' },
    responses: {
      201: { description: 'The connection, with the URL the customer opens', schema: connectionSchema },
      400: { description: 'Invalid body, or a CPF the institution needs is missing', schema: errorSchema },
      404: { description: 'Unknown institution', schema: errorSchema },
      502: bankUnavailable,
      504: bankUnavailable,
    },
  }),
  defineRoute({
    operationId: 'attachPluggyItem',
    method: 'post',
    path: '/v1/open-banking/connections/:id/item',
    service: 'ledger',
    tag: TAG,
    summary: 'Complete a Pluggy connection with the item its widget created',
    description:
      'For a connection to `pluggy`: the front end opened Pluggy Connect with the connection’s `connect_token`; the item it created is checked at Pluggy (it must name this connection as its `clientUserId`), then the connection becomes `ACTIVE` and its first sync is queued. An item of another connection, or unknown to Pluggy, is 404 and changes nothing; 409 for a connection that is not Pluggy’s or already `ACTIVE`.',
    params: idParams,
    body: Joi.object<AttachItemBody>({ item_id: Joi.string().max(200).required() }),
    example: { item_id: '5e0a6bd3-0c4c-4b0b-9c1b-5c1c9b2b8f5a' },
    responses: {
      200: { description: 'The connection, ACTIVE', schema: connectionSchema },
      404: { description: 'Unknown connection or item, or another context’s', schema: errorSchema },
      409: { description: 'Not a Pluggy connection, or already ACTIVE', schema: errorSchema },
      502: bankUnavailable,
      504: bankUnavailable,
    },
  }),
  defineRoute({
    operationId: 'pluggyWebhook',
    method: 'post',
    path: '/v1/open-banking/pluggy/webhook',
    service: 'ledger',
    tag: TAG,
    public: true,
    summary: 'Pluggy’s webhook (no API key)',
    description: [
      'Where Pluggy notifies the items’ changes: the URL this deployment gave it (`PLUGGY_WEBHOOK_URL`), whose secret `token` authenticates the call (compared in constant time; Pluggy signs nothing). **No API key.** A call without that token, or with another, is answered like any other and does nothing.',
      'With it, one item’s webhooks act at most once per interval (`PLUGGY_WEBHOOK_INTERVAL_MS`, 5 minutes; the others are ignored, the sync reading everything anyway): the item is read back from Pluggy with our credentials and must be a connection’s (its `clientUserId`); an item updated queues that connection’s sync (not a second one while one is queued), an item deleted makes it `REVOKED`.',
      'Answers: 202 `{received: true}` for any JSON object with an `event`, whoever sends it and whatever it names; like every route, 400 for malformed JSON or a body without `event`, 413 above 1 MiB, 415 for a body that is not JSON.',
    ].join('\n\n'),
    // any token, even empty, gets the same answer: only the right one acts
    query: Joi.object<PluggyWebhookQuery>({ token: Joi.string().allow('').max(16_384) }),
    body: Joi.object<PluggyWebhookBody>({
      event: Joi.string().max(100).required(),
      itemId: Joi.string().max(200),
    }).unknown(true),
    example: { event: 'item/updated', itemId: '5e0a6bd3-0c4c-4b0b-9c1b-5c1c9b2b8f5a' },
    responses: {
      202: {
        description: 'Received',
        schema: Joi.object({ received: Joi.boolean().required() }).label('WebhookReceived'),
      },
    },
  }),
  defineRoute({
    operationId: 'getOpenBankingConnection',
    method: 'get',
    path: '/v1/open-banking/connections/:id',
    service: 'ledger',
    tag: TAG,
    summary: 'A bank connection',
    params: idParams,
    responses: {
      200: { description: 'The connection', schema: connectionSchema },
      404: { description: 'Unknown connection, or another context', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'syncOpenBankingConnection',
    method: 'post',
    path: '/v1/open-banking/connections/:id/sync',
    service: 'ledger',
    tag: TAG,
    summary: 'Sync a connection now',
    description:
      'Queues a sync (connections also sync every 6 hours): accounts and balances, the transactions since the last sync (with a margin; 12 months on the first), cards with their bills and limits, investments with the day’s balance. A sync already queued and not started is not queued again (the same 202), and one running is not started twice. The answer is the connection; `last_synced_at` and `last_import_job_id` show the result. 409 unless `ACTIVE`.',
    params: idParams,
    responses: {
      202: { description: 'The connection, sync queued', schema: connectionSchema },
      404: { description: 'Unknown connection, or another context', schema: errorSchema },
      409: { description: 'The connection is not ACTIVE', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'renewOpenBankingConnection',
    method: 'post',
    path: '/v1/open-banking/connections/:id/renew',
    service: 'ledger',
    tag: TAG,
    summary: 'Authorise a connection again (expired, revoked or never completed)',
    description:
      'Creates a new consent at the connection’s institution and answers the connection `AWAITING_AUTHORISATION` with a new `authorization_url`; once authorised the same connection (its accounts and history) syncs again. 409 for an `ACTIVE` connection or one made by a JSON import.',
    params: idParams,
    body: Joi.object<RenewConnectionBody>({ redirect_uri: redirectUri(), cpf: cpf() }),
    example: { cpf: '76109277673' },
    responses: {
      200: { description: 'The connection, with the URL the customer opens', schema: connectionSchema },
      404: { description: 'Unknown connection, or another context', schema: errorSchema },
      409: { description: 'The connection is ACTIVE, or was made by a JSON import', schema: errorSchema },
      502: bankUnavailable,
      504: bankUnavailable,
    },
  }),
  defineRoute({
    operationId: 'deleteOpenBankingConnection',
    method: 'delete',
    path: '/v1/open-banking/connections/:id',
    service: 'ledger',
    tag: TAG,
    summary: 'Revoke a connection',
    description:
      'The connection becomes `REVOKED` at once and its consent is revoked at the institution (`DELETE /consents/{consentId}`) by a job, retried until the institution answers. The accounts, cards, transactions and investments it imported stay.',
    params: idParams,
    responses: {
      200: { description: 'The connection, REVOKED', schema: connectionSchema },
      404: { description: 'Unknown connection, or another context', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'openBankingCallback',
    method: 'get',
    path: '/v1/open-banking/callback',
    service: 'ledger',
    tag: TAG,
    public: true,
    summary: 'Where the institution sends the customer back (no API key)',
    description: [
      'The redirect URI registered at every institution. **No API key**: the customer’s browser arrives here from the institution, so the request is bound to its connection by `state` alone (256 random bits, stored hashed, used once), and the authorization response must be the institution’s signed JWT (`response`, JARM) whose code is exchanged with the connection’s PKCE verifier and its ID token checked against its nonce.',
      'Success: the connection becomes `ACTIVE` and its first sync is queued; the answer is 303 to the connection’s `redirect_uri` (with `connection_id` and `status`) or 200 JSON. The customer refusing at the institution makes the connection `FAILED`. A missing, forged or already used `state`, an unsigned or tampered response, or a code the institution refuses change nothing: 400.',
    ].join('\n\n'),
    query: Joi.object<CallbackQuery>({
      response: Joi.string().max(16384),
      state: Joi.string().max(512),
      code: Joi.string().max(2048),
      error: Joi.string().max(256),
      error_description: Joi.string().max(2048),
    }).unknown(true),
    responses: {
      200: { description: 'The connection completed (or refused by the customer)', schema: callbackAnswerSchema },
      303: { description: 'The same, redirecting to the connection’s redirect_uri', headers: ['Location'] },
      400: { description: 'Unknown, forged or used state; invalid authorization response', schema: errorSchema },
      502: bankUnavailable,
      504: bankUnavailable,
    },
  }),
];
