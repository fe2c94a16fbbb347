import { publicRoutes } from '@finance/shared/contracts/index';
import Joi from 'joi';
import { documentValidator } from '../../../test/support/json-schema.ts';
import { buildOpenApi } from '../src/entry-points/http/openapi.ts';
import { SchemaRegistry } from '../src/entry-points/http/openapi-schema.ts';
import { exampleFor } from '../src/entry-points/http/schema-example.ts';

type Json = Record<string, any>;
const document = buildOpenApi(publicRoutes, '0.1.0') as unknown as Json;

/** Every example in the document, with the schema it illustrates. */
function examplesOf(doc: Json): Array<{ where: string; schema: unknown; example: unknown }> {
  const found: Array<{ where: string; schema: unknown; example: unknown }> = [];
  for (const [path, operations] of Object.entries(doc.paths as Json)) {
    for (const [method, operation] of Object.entries(operations as Json)) {
      const media = operation.requestBody?.content?.['application/json'];
      if (media?.example !== undefined) found.push({ where: `${method} ${path} request`, ...media });
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const body = response.content?.['application/json'];
        if (body?.example !== undefined) found.push({ where: `${method} ${path} ${status}`, ...body });
      }
    }
  }
  for (const [event, webhook] of Object.entries((doc.webhooks ?? {}) as Json)) {
    const media = webhook.post.requestBody.content['application/json'];
    found.push({ where: `webhook ${event}`, ...media });
  }
  return found;
}

const validatorFor = (doc: Json) => documentValidator(doc.components);

describe('OpenAPI document built from the contracts', () => {
  const check = validatorFor(document);

  it('when every request and response example is checked against its own schema, then all validate', () => {
    const examples = examplesOf(document);
    expect(examples.length).toBeGreaterThan(100);
    const failures = examples
      .map(({ where, schema, example }) => ({ where, errors: check(schema, example) }))
      .filter(({ errors }) => errors.length);
    expect(failures).toEqual([]);
  });

  it('when read, then records are named component schemas referenced with $ref, at least 25 of them', () => {
    const names = Object.keys(document.components.schemas);
    expect(names.length).toBeGreaterThanOrEqual(25);
    for (const record of [
      'Transaction',
      'ExpandedTransaction',
      'Account',
      'CreditCard',
      'Bill',
      'Category',
      'Subcategory',
      'Tag',
      'CategorizationRule',
      'SpendingLimit',
      'Goal',
      'Notification',
      'PersonalConfig',
      'DreMappingEntry',
      'SummaryReport',
      'Job',
      'Error',
    ])
      expect(names).toContain(record);
    // no two shapes under one label
    expect(names.filter((name) => /\d$/.test(name))).toEqual([]);
    const getAccount = document.paths['/v1/accounts/{id}'].get.responses['200'].content['application/json'].schema;
    expect(getAccount).toEqual({ $ref: '#/components/schemas/Account' });
  });

  it('when read, then tags carry descriptions and every response states its headers', () => {
    const used = new Set(publicRoutes.map((route) => route.tag));
    expect(document.tags.map((tag: Json) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of document.tags) expect(tag.description).toEqual(expect.any(String));
    const create = document.paths['/v1/accounts'].post.responses;
    expect(Object.keys(create['201'].headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Idempotent-Replayed']),
    );
    expect(Object.keys(create['429'].headers)).toContain('Retry-After');
    expect(Object.keys(create['503'].headers)).toContain('Retry-After');
    expect(Object.keys(create)).toEqual(
      expect.arrayContaining(['400', '401', '403', '409', '413', '415', '429', '500', '502', '503']),
    );
    // an id in the query can be another context's: 404
    expect(Object.keys(document.paths['/v1/transactions'].get.responses)).toContain('404');
    expect(Object.keys(document.paths['/v1/tags'].get.responses)).not.toContain('404');
    expect(document.paths['/v1/tags'].get.responses['200'].headers).not.toHaveProperty('Idempotent-Replayed');
    // a service's own header on one answer: a busy bill's 409 asks to retry later
    expect(Object.keys(document.paths['/v2/bills/{id}/pay'].post.responses['409'].headers)).toContain('Retry-After');
    expect(Object.keys(create['409'].headers)).not.toContain('Retry-After');
    expect(document.paths['/v1/tags'].get.responses['401'].headers).toEqual({
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    });
  });

  it('when joi converts before it checks, then the schema takes what joi takes', () => {
    const registry = new SchemaRegistry();
    const check = validatorFor({ components: { schemas: registry.components } });
    const frequency = registry.toSchema(Joi.string().uppercase().valid('MONTHLY', 'YEARLY'));
    expect(check(frequency, 'monthly')).toEqual([]);
    expect(check(frequency, 'MoNtHlY')).toEqual([]);
    expect(check(frequency, 'weekly')).not.toEqual([]);
    const single = registry.toSchema(Joi.string().uppercase().valid('MONTHLY'));
    expect(check(single, 'monthly')).toEqual([]);
    expect(check(single, 'yearly')).not.toEqual([]);
    const open = registry.toSchema(Joi.object({ data: Joi.object().required() }));
    expect(check(open, { data: { goal_id: 'x' } })).toEqual([]);
    const nullableAlternatives = registry.toSchema(
      Joi.alternatives()
        .try(Joi.string().pattern(/^\d{3}$/), Joi.string().uri())
        .allow(null),
    );
    expect(check(nullableAlternatives, '341')).toEqual([]);
    expect(check(nullableAlternatives, null)).toEqual([]);
    expect(check(nullableAlternatives, 'x')).not.toEqual([]);
  });

  it('when a patterned string has no example, then the sample matches the pattern', () => {
    for (const pattern of ['^#[0-9a-fA-F]{6}$', '^sha256:[0-9a-f]{64}$', '^\\d{4}-\\d{2}-\\d{2}$', '^[A-Z]{3}$'])
      expect(String(exampleFor({ type: 'string', pattern }))).toMatch(new RegExp(pattern));
    expect(exampleFor({ type: 'array', items: {} })).toEqual([]);
  });
});
