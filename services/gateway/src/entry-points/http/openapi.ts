import { errorSchema } from '@finance/shared/contracts/common';
import {
  WEBHOOK_EVENT_DOCS,
  WEBHOOK_EVENT_EXAMPLES,
  WEBHOOK_SIGNATURE_DOC,
  webhookEventBodySchema,
} from '@finance/shared/contracts/insights/webhooks';
import { type AnyRoute, scopeFor } from '@finance/shared/contracts/route';
import { MAX_JSON_DEPTH } from '@finance/shared/http/json-depth';
import { WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';
import { type JsonSchema, SchemaRegistry, tidySchema } from './openapi-schema.ts';
import { exampleFor } from './schema-example.ts';

/** What each tag groups; a tag missing here is still documented, with a generic description. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Accounts: 'Bank accounts of the context, their balances and the bank codes accepted as logos.',
  'Credit cards': 'Credit cards (owned by billing), their closing and due days and limits.',
  Bills: 'Monthly bills of a card: listing, the transactions of a bill, payment and closing-day changes.',
  Transactions:
    'Income, expenses, transfers, recurrences and installments, with series edits (ONLY, THIS_AND_NEXT, ALL).',
  Categories: 'Categories and subcategories that classify transactions.',
  'Categorization rules': 'Rules that categorize transactions by merchant, applied to new and past ones.',
  Tags: 'Free tags attached to transactions.',
  Preferences: 'Personal configuration of the context, which changes how totals are computed.',
  Business: 'Company features behind a licensed company key: DRE mapping, payables and receivables.',
  Contacts: 'Customers and suppliers of a company.',
  'Cost centers': 'Cost centers of a company.',
  'Spending limits': 'Spending limits per category or subcategory, with warnings as spending approaches them.',
  Goals: 'Savings goals, their values and monthly reminders.',
  Notifications: 'Warnings and reminders made by workers from ledger events.',
  Reports: 'Spending by subcategory, summary and DRE reports.',
  Investments: 'Daily yield of imported investments.',
  Jobs: 'Long-running work (imports, recategorization) and its progress.',
  'Open banking': 'Imports of accounts, cards, transactions and investments from a bank feed, and consent.',
  Webhooks: 'Signed HTTPS calls to a client URL for chosen events, their deliveries and manual retries.',
};

const IDEMPOTENCY_DESCRIPTION = [
  '**Idempotency.** Any POST, PUT, PATCH or DELETE may carry `Idempotency-Key` (1–255 visible ASCII characters; otherwise 400).',
  'The key is scoped to the API key and remembered for 24 hours with the request fingerprint (method, path with query, SHA-256 of the JSON body)',
  'by the service that owns the write, in the same database transaction as the write and with its answer.',
  'A repeat with the same fingerprint replays the first answer (same status and body, header `Idempotent-Replayed: true`) without running it again,',
  'also when the first answer was lost (a timeout or 503 at the gateway, a service killed right after its commit): a retry never writes twice;',
  'the same key with another fingerprint is 409 `Chave de idempotência reutilizada com outra requisição`;',
  'two arriving at once: one runs, the other is 409 `Requisição com esta chave de idempotência ainda em andamento`.',
  'Answers below 500 are kept; a 5xx that wrote nothing leaves the key free. GET ignores the header.',
].join(' ');

/** `info.version` of the served document. */
export const API_VERSION = '0.1.0';

export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers the gateway sets: every answer has a request id; past authentication, the rate-limit state. */
const HEADERS = {
  'X-Request-Id': {
    description: 'Id of this request in the logs: the `X-Request-Id` sent (1–128 of `A-Za-z0-9_-`) or a new UUID',
    schema: { type: 'string', pattern: '^[\\w-]{1,128}$' },
  },
  RateLimit: {
    description: 'Requests left in the current window of the key and seconds until it resets (IETF draft 8)',
    schema: { type: 'string' },
    example: '"100-in-1min"; r=99; t=60',
  },
  'RateLimit-Policy': {
    description: 'The per-key quota and window (IETF draft 8)',
    schema: { type: 'string' },
    example: '"100-in-1min"; q=100; w=60',
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  Location: { description: 'Where the browser goes next', schema: { type: 'string', format: 'uri' } },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when the answer is the replay of an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
  },
};

export function buildParameters(route: AnyRoute, registry: SchemaRegistry) {
  const params: unknown[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = registry.resolve(registry.toSchema(schema)) ?? {};
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      params.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        ...(property.description ? { description: property.description } : {}),
        schema: property,
      });
    }
  }
  return params;
}

/**
 * A derived response example shows the request example's values for the fields both share, when the
 * value is what the response field holds (a request's `YYYY-MM-DD` is no response timestamp).
 */
function withRequestValues(example: unknown, request: unknown, schema: JsonSchema | undefined): unknown {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(example) || !isObject(request)) return example;
  const CONSTRAINTS = ['$ref', 'anyOf', 'oneOf', 'enum', 'const', 'format', 'pattern'];
  const inRange = (value: number, property: JsonSchema) =>
    (typeof property.minimum !== 'number' || value >= property.minimum) &&
    (typeof property.maximum !== 'number' || value <= property.maximum);
  const shared = Object.entries(request).filter(([key, value]) => {
    const property = schema?.properties?.[key];
    if (!(key in example) || !property || CONSTRAINTS.some((constraint) => constraint in property)) return false;
    // a plain value of the property's own type: a request's `YYYY-MM-DD` never lands in a response timestamp
    const types = [property.type].flat();
    if (typeof value === 'string') return types.includes('string') && !('maxLength' in property);
    if (typeof value === 'boolean') return types.includes('boolean');
    if (typeof value === 'number')
      return (
        (types.includes('number') || (types.includes('integer') && Number.isInteger(value))) && inRange(value, property)
      );
    return false;
  });
  return { ...example, ...Object.fromEntries(shared) };
}

/** Whether a query or body field holds a uuid (a record the context may not have). */
function namesAnId(route: AnyRoute, registry: SchemaRegistry): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return false;
    seen.add(value);
    const node = value as JsonSchema;
    if (node.format === 'uuid') return true;
    if (node.$ref && visit(registry.resolve(node))) return true;
    return Object.values(node).some(visit);
  };
  return [route.query, route.body].some((schema) => schema !== undefined && visit(registry.toSchema(schema)));
}

function operationOf(route: AnyRoute, registry: SchemaRegistry) {
  const write = route.method !== 'get';
  // past authentication every answer carries the rate-limit state; a write may be an idempotent replay; a
  // public route (no key) has neither
  const passedHeaders = route.public
    ? { 'X-Request-Id': header('X-Request-Id') }
    : {
        'X-Request-Id': header('X-Request-Id'),
        RateLimit: header('RateLimit'),
        'RateLimit-Policy': header('RateLimit-Policy'),
        ...(write ? { 'Idempotent-Replayed': header('Idempotent-Replayed') } : {}),
      };
  const error = (description: string, headers: Record<string, unknown> = passedHeaders) => ({
    description,
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  const resolve = (schema: Record<string, unknown>) => registry.resolve(schema as JsonSchema);
  const responses: Record<string, unknown> = {};
  const success = Object.keys(route.responses).find((status) => status.startsWith('2'));
  for (const [status, response] of Object.entries(route.responses)) {
    // headers the service sets on this answer, on top of the gateway's
    const headers = {
      ...passedHeaders,
      ...Object.fromEntries((response.headers ?? []).map((name) => [name, header(name)])),
    };
    if (!response.schema) {
      responses[status] = { description: response.description, headers };
      continue;
    }
    const schema = registry.toSchema(response.schema);
    // the contract's own example, else one derived from the schema, so every operation shows a response
    const example =
      status === success && route.responseExample !== undefined
        ? route.responseExample
        : withRequestValues(
            exampleFor(schema, resolve),
            status === success ? route.example : undefined,
            registry.resolve(schema),
          );
    responses[status] = {
      description: response.description,
      headers,
      content: { 'application/json': { schema, example } },
    };
  }
  responses['400'] ??= error(
    `Invalid input; \`details\` lists each field. A JSON body nested deeper than ${MAX_JSON_DEPTH} levels is refused before it is parsed`,
  );
  if (!route.public) {
    responses['401'] = error('Credenciais de API inválidas', { 'X-Request-Id': header('X-Request-Id') });
    responses['403'] = error(
      `Key lacks the \`${scopeFor(route.method)}\` scope${route.business ? ', or the context is not a licensed company' : ''}`,
    );
  }
  // another context's id is 404 wherever it comes: path, query or body
  if (route.path.includes(':') || namesAnId(route, registry)) responses['404'] ??= error('Not found in this context');
  if (write) {
    if (!route.public)
      responses['409'] ??= error(
        'Idempotency-Key reused with another request, its first request still running, or its committed answer lost',
      );
    responses['413'] = error(`Body over ${(route.bodyLimit ?? '1mb').replace(/mb$/, ' MiB')}`);
    responses['415'] = error(
      route.file
        ? `Body missing, or sent with a content type other than ${route.file.mediaTypes.map((type) => `\`${type}\``).join(', ')}`
        : 'Body sent with a content type other than JSON (`application/json` or `+json`)',
    );
  }
  if (!route.public) {
    responses['429'] = error('Rate limit of the key exceeded', {
      ...passedHeaders,
      'Retry-After': header('Retry-After'),
    });
  }
  responses['500'] = error('Unexpected server error');
  responses['502'] ??= error('A service this operation calls answered with an unexpected error');
  responses['503'] = error(
    'A dependency (PostgreSQL or a service) is unavailable for now; retry after `Retry-After` seconds (writes with the same `Idempotency-Key`)',
    {
      ...passedHeaders,
      'Retry-After': header('Retry-After'),
    },
  );
  const operation: Record<string, unknown> = {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: [
      route.description ??
        `${route.summary}.${route.path.includes(':') ? ' An id of another context, or of nothing, is 404.' : ''}`,
      route.business ? 'Business: needs a company key with an active license.' : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    // Idempotency-Key is per API key: a public route (no key) takes none
    parameters:
      write && !route.public
        ? [...buildParameters(route, registry), { $ref: '#/components/parameters/IdempotencyKey' }]
        : buildParameters(route, registry),
    responses,
    ...(route.public ? { security: [] } : { 'x-scope': scopeFor(route.method) }),
  };
  if (route.file) {
    const file = route.file;
    operation.requestBody = {
      required: true,
      description: file.description,
      content: Object.fromEntries(
        file.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' }, example: file.example }]),
      ),
    };
  } else if (route.body) {
    const schema = registry.toSchema(route.body);
    operation.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema,
          example: route.example !== undefined ? route.example : exampleFor(schema, resolve),
        },
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
function webhooksSection(registry: SchemaRegistry) {
  // inlined (not a $ref): each event narrows `type` to its own value
  const body = registry.resolve(registry.toSchema(webhookEventBodySchema)) ?? {};
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
export function buildOpenApi(routes: AnyRoute[], version: string) {
  const registry = new SchemaRegistry();
  const errorRef = registry.toSchema(errorSchema);
  if (errorRef.$ref !== '#/components/schemas/Error') throw new Error('the error schema must be labelled Error');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operationOf(route, registry);
  }
  const webhooks = webhooksSection(registry);
  const tags = [...new Set(routes.map((route) => route.tag))].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name.toLowerCase()}.`,
  }));
  const schemas = Object.fromEntries(
    Object.entries(registry.components)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, schema]) => [name, tidySchema(schema)]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Finance API',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Personal and business finance for Brazil. The product decisions behind this contract, where it leaves a choice open, are in docs/decisions.md of the repository; each operation states its own. Authenticate with HTTP Basic `token:secret`. Amounts are integer cents; dates `YYYY-MM-DD`; timestamps ISO 8601 UTC with milliseconds. Errors: `{message, statusCode, error, details?}`. Request bodies (and each object of a body array) may carry `id`, `user_id`, `profile_id`, `createdAt` and `updatedAt`: they are dropped before validation, so the body schemas leave them out. A JSON body nested deeper than ' +
        `${MAX_JSON_DEPTH} levels is 400 before it is parsed.\n\n` +
        IDEMPOTENCY_DESCRIPTION,
    },
    servers: [{ url: '/' }],
    security: [{ basicAuth: [] }],
    tags,
    components: {
      schemas,
      headers: HEADERS,
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
    },
    paths,
    webhooks,
  };
}
