import { publicRoutes } from '@finance/shared/contracts/index';
import { openApiDocument } from '../../scripts/openapi-document.ts';
import { toOpenApiPath } from '../../services/gateway/src/entry-points/http/openapi.ts';
import { TestStack } from '../support/stack.ts';

type Operation = {
  operationId: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<
    string,
    {
      description?: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: unknown; example?: unknown }>;
    }
  >;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('OpenAPI: /openapi.json', () => {
  let stack: TestStack;
  let document: Document;
  beforeAll(async () => {
    stack = await TestStack.start();
    const response = await fetch(`${stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });
  afterAll(() => stack?.stop());

  it('when served, then it is the document the lint and the client generator build from the contracts', () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('when read again, then the same bytes come back as JSON (built once, on the first read)', async () => {
    const [first, second] = await Promise.all([fetch(`${stack.url}/openapi.json`), fetch(`${stack.url}/openapi.json`)]);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await first.text();
    expect(await second.text()).toBe(text);
    expect(JSON.parse(text)).toEqual(document);
  });

  it('when validated against the OpenAPI 3.1 schema, then it is valid', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('when read, then every public route is there with its request and response schemas and examples', () => {
    for (const route of publicRoutes) {
      const operation = document.paths[toOpenApiPath(route.path)]?.[route.method];
      expect({ route: route.operationId, found: operation?.operationId }).toEqual({
        route: route.operationId,
        found: route.operationId,
      });
      for (const [status, response] of Object.entries(route.responses)) {
        const documented = operation.responses[status];
        expect(documented).toBeDefined();
        if (response.schema) expect(documented.content?.['application/json'].schema).toEqual(expect.any(Object));
      }
      if (route.file) {
        // a file route takes its file in each of its media types, with the example file
        for (const type of route.file.mediaTypes) {
          expect(operation.requestBody?.content[type]).toEqual({
            schema: expect.any(Object),
            example: route.file.example,
          });
        }
      } else if (route.body) {
        const body = operation.requestBody?.content['application/json'];
        expect(body?.schema).toEqual(expect.any(Object));
        if (route.example !== undefined) expect(body?.example).toEqual(route.example);
      }
      for (const [status, documented] of Object.entries(operation.responses)) {
        const json = documented.content?.['application/json'];
        if (json && status.startsWith('2'))
          expect({ status, example: json.example !== undefined }).toEqual({ status, example: true });
      }
      if (route.body && !route.file)
        expect({ route: route.operationId, example: route.example !== undefined }).toEqual({
          route: route.operationId,
          example: true,
        });
      // the gateway's own answers (docs/decisions.md §3): rate limit with Retry-After (per key: a public route,
      // reached without one, has neither the key's 401/403 nor its 429); body size and type on writes
      if (route.public) {
        expect(operation.security).toEqual([]);
        expect(operation.responses['401']).toBeUndefined();
      } else expect(operation.responses['429']?.headers?.['Retry-After']).toBeDefined();
      // a dependency outage: 503 with Retry-After on every operation
      expect(operation.responses['503']?.headers?.['Retry-After']).toBeDefined();
      if (route.method !== 'get') {
        expect(operation.responses['413']?.description).toBe(
          route.bodyLimit === '10mb' ? 'Body over 10 MiB' : 'Body over 1 MiB',
        );
        expect(operation.responses['415']).toBeDefined();
      }
      if (route.responseExample !== undefined) {
        const success = Object.keys(route.responses).find((status) => status.startsWith('2')) as string;
        expect(operation.responses[success].content?.['application/json'].example).toEqual(route.responseExample);
      }
    }
  });
});
