import { randomUUID } from 'node:crypto';
import { publicRoutes } from '@finance/shared/contracts/index';
import { MAX_JSON_DEPTH } from '@finance/shared/http/json-depth';
import { type Tenant, TestStack } from '../support/stack.ts';

const LEVELS = 100_000;
const deepBody = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
// JSON bodies only: a statement file route refuses JSON before reading it (415)
const withBody = publicRoutes.filter((route) => route.body && !route.file);

describe('JSON bodies nested past the depth limit', () => {
  let stack: TestStack;
  let personal: Tenant;
  let company: Awaited<ReturnType<TestStack['companyClient']>>;

  beforeAll(async () => {
    stack = await TestStack.start();
    personal = await stack.tenant();
    company = await stack.companyClient(personal.userId);
  });
  afterAll(() => stack?.stop());

  it(`when each of the ${withBody.length} routes with a body gets ${LEVELS.toLocaleString('en')} nested arrays, then 400 naming the limit, quickly, and the gateway stays healthy`, async () => {
    const answers: Array<[string, number, string]> = [];
    const started = Date.now();
    for (const route of withBody) {
      const api = route.business ? company.api : personal.api;
      const path = route.path.replace(/:(\w+)/g, () => randomUUID());
      const response = await api.request(route.method.toUpperCase(), path, {
        rawBody: deepBody,
        headers: { 'content-type': 'application/json' },
      });
      answers.push([`${route.method} ${route.path}`, response.status, response.body?.message]);
    }
    const elapsed = Date.now() - started;
    const message = `JSON aninhado além do limite de ${MAX_JSON_DEPTH} níveis`;
    expect(answers.filter(([, status, text]) => status !== 400 || text !== message)).toEqual([]);
    expect(withBody.length).toBeGreaterThanOrEqual(30);
    expect(elapsed).toBeLessThan(withBody.length * 500);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    const created = await personal.api.post('/v1/tags', { name: 'Depois do ataque' });
    expect(created.status).toBe(201);
  });

  it('when a body nests exactly the limit, then it reaches validation (400 for the fields, not for the depth)', async () => {
    const nested = `{"name":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    const response = await personal.api.request('POST', '/v1/tags', {
      rawBody: nested,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ field: 'name' })]);
    const deeper = `{"name":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    const refused = await personal.api.request('POST', '/v1/tags', {
      rawBody: deeper,
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.body).toEqual({
      message: `JSON aninhado além do limite de ${MAX_JSON_DEPTH} níveis`,
      statusCode: 400,
      error: 'Bad Request',
      details: [{ field: 'body', message: `JSON aninhado além do limite de ${MAX_JSON_DEPTH} níveis` }],
    });
  });
});
