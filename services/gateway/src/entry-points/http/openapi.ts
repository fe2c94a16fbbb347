import { errorSchema } from '@finance/shared/contracts/common';
import {
  WEBHOOK_EVENT_DOCS,
  WEBHOOK_EVENT_EXAMPLES,
  WEBHOOK_SIGNATURE_DOC,
  webhookEventBodySchema,
} from '@finance/shared/contracts/insights/webhooks';
import { type RouteContract, scopeFor } from '@finance/shared/contracts/route';
import { WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';
import type Joi from 'joi';
import joiToJson, { type parse } from 'joi-to-json';
import { exampleFor } from './schema-example.ts';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

// the package is CommonJS: its module.exports is the parse function itself
const convert = joiToJson as unknown as typeof parse;
const toSchema = (schema: Joi.Schema): JsonSchema => convert(schema as never, 'open-api-3.1') as JsonSchema;

const IDEMPOTENCY_DESCRIPTION = [
  '**Idempotency.** Any POST, PUT, PATCH or DELETE may carry `Idempotency-Key` (1–255 visible ASCII characters; otherwise 400).',
  'The key is scoped to the API key and remembered for 24 hours with the request fingerprint (method, path with query, SHA-256 of the JSON body)',
  'by the service that owns the write, in the same database transaction as the write.',
  'A repeat with the same fingerprint replays the first answer (same status and body, header `Idempotent-Replayed: true`) without running it again,',
  'also when the first answer was lost (a timeout or 503 at the gateway, a restarted service): a retry never writes twice;',
  'the same key with another fingerprint is 409 `Chave de idempotência reutilizada com outra requisição`;',
  'a repeat while the first is still running is 409 `Requisição com esta chave de idempotência ainda em andamento`',
  '(two arriving at once: one runs, the other is this 409); a write that committed but whose answer was never kept is 409',
  '`Requisição com esta chave de idempotência já foi executada, mas sua resposta se perdeu; consulte o recurso`.',
  'Answers below 500 are kept; a 5xx that wrote nothing leaves the key free. GET ignores the header.',
].join(' ');

export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

function parametersOf(route: RouteContract) {
  const params: unknown[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema);
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      params.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        description: property.description,
        schema: property,
      });
    }
  }
  return params;
}

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** A derived response example shows the request example's values for the fields both share. */
function withRequestValues(example: unknown, request: unknown): unknown {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(example) || !isObject(request)) return example;
  const shared = Object.entries(request).filter(([key]) => key in example);
  return { ...example, ...Object.fromEntries(shared) };
}

function operationOf(route: RouteContract) {
  const responses: Record<string, unknown> = {};
  const success = Object.keys(route.responses).find((status) => status.startsWith('2'));
  for (const [status, response] of Object.entries(route.responses)) {
    if (!response.schema) {
      responses[status] = { description: response.description };
      continue;
    }
    const schema = toSchema(response.schema);
    // the contract's own example, else one derived from the schema, so every operation shows a response
    const example =
      status === success && route.responseExample !== undefined
        ? route.responseExample
        : withRequestValues(exampleFor(schema), status === success ? route.example : undefined);
    responses[status] = { description: response.description, content: { 'application/json': { schema, example } } };
  }
  responses['400'] ??= error('Invalid input; `details` lists each field');
  responses['401'] = error('Credenciais de API inválidas');
  responses['403'] = error(
    `Key lacks the \`${scopeFor(route.method)}\` scope${route.business ? ', or the context is not a licensed company' : ''}`,
  );
  if (route.path.includes(':')) responses['404'] ??= error('Not found in this context');
  responses['429'] = {
    ...error('Rate limit of the key exceeded'),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } },
  };
  const write = route.method !== 'get';
  if (write) {
    responses['409'] ??= error(
      'Idempotency-Key reused with another request, its first request still running, or its committed answer lost',
    );
    responses['413'] = error(`Body over ${(route.bodyLimit ?? '1mb').replace(/mb$/, ' MiB')}`);
    responses['415'] = error('Body sent with a content type other than JSON (`application/json` or `+json`)');
  }
  const operation: Record<string, unknown> = {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: [route.description, route.business ? 'Business: needs a company key with an active license.' : '']
      .filter(Boolean)
      .join('\n\n'),
    parameters: write
      ? [...parametersOf(route), { $ref: '#/components/parameters/IdempotencyKey' }]
      : parametersOf(route),
    responses,
    'x-scope': scopeFor(route.method),
  };
  if (route.body) {
    operation.requestBody = {
      required: true,
      content: {
        'application/json': { schema: toSchema(route.body), ...(route.example ? { example: route.example } : {}) },
      },
    };
  }
  return operation;
}

const WEBHOOK_HEADERS = [
  ['Finance-Signature', 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>'],
  ['Finance-Event-Id', 'The event id (also `id` in the body); the same on every retry'],
  ['Finance-Event-Type', 'The event type (also `type` in the body)'],
  ['Finance-Delivery-Id', 'The delivery, as listed by GET /v1/webhooks/{id}/deliveries'],
] as const;

/** The `webhooks` section: what a subscribed URL receives for each event type (contract: shared/src/contracts/insights/webhooks.ts). */
function webhooksSection() {
  const body = toSchema(webhookEventBodySchema);
  const webhooks: Record<string, unknown> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const camel = type.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase());
    webhooks[type] = {
      post: {
        operationId: `webhook${camel[0].toUpperCase()}${camel.slice(1)}`,
        tags: ['Webhooks'],
        summary: `Event ${type}`,
        description: `${WEBHOOK_EVENT_DOCS[type]}\n\n${WEBHOOK_SIGNATURE_DOC}`,
        parameters: WEBHOOK_HEADERS.map(([name, description]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { ...body, properties: { ...body.properties, type: { type: 'string', const: type } } },
              example: {
                id: '0190a1b2-0000-7000-8000-0000000000e1',
                type,
                created_at: '2026-03-05T12:00:00.000Z',
                data: WEBHOOK_EVENT_EXAMPLES[type],
              },
            },
          },
        },
        responses: { '200': { description: 'Received (any 2xx); anything else is retried' } },
        security: [],
      },
    };
  }
  return webhooks;
}

/** The OpenAPI 3.1 document, generated from the route table and the joi schemas that validate requests. */
export function buildOpenApi(routes: RouteContract[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Finance API',
      version,
      description:
        'Personal and business finance for Brazil. Authenticate with HTTP Basic `token:secret`. Amounts are integer cents; dates `YYYY-MM-DD`; timestamps ISO 8601 UTC with milliseconds. Errors: `{message, statusCode, error, details?}`.\n\n' +
        IDEMPOTENCY_DESCRIPTION,
    },
    servers: [{ url: '/' }],
    security: [{ basicAuth: [] }],
    components: {
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Runs this write once per API key and key, recorded by the owning service with the write; a retry after a lost answer replays it. See the API description',
          schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
        },
      },
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'username = API token, password = API secret' },
      },
      schemas: { Error: toSchema(errorSchema) },
    },
    paths,
    webhooks: webhooksSection(),
  };
}
