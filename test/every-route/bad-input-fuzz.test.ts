import { randomUUID } from 'node:crypto';
import { publicRoutes } from '@finance/shared/contracts/index';
import type { RouteContract } from '@finance/shared/contracts/route';
import fc from 'fast-check';
import { type Tenant, TestStack } from '../support/stack.ts';

/** Statuses a client may get for bad input; 500 (or anything else) means the server trusted what it should have checked. */
const CLIENT_ERRORS = [400, 404, 409, 413, 415];

const pathWith = (route: RouteContract, value: string) => route.path.replace(/:(\w+)/g, () => value);

/** Values of every wrong JSON type for a field, whatever its type is. */
const WRONG_VALUES: unknown[] = [{ nested: true }, [1, 2], 'texto', -1, 1e20, true, null];

describe('bad input through the gateway never reaches a 500', () => {
  let stack: TestStack;
  let personal: Tenant;
  let company: Awaited<ReturnType<TestStack['companyClient']>>;

  beforeAll(async () => {
    // every route of the table fuzzed with one key: more requests a minute than the default rate limit allows
    stack = await TestStack.start({ env: { RATE_LIMIT_MAX: '100000' } });
    personal = await stack.tenant();
    company = await stack.companyClient(personal.userId);
  });
  afterAll(() => stack?.stop());

  const apiFor = (route: RouteContract) => (route.business ? company.api : personal.api);

  it.each(publicRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]))(
    'when %s gets unknown ids, malformed ids and wrongly typed fields, then a client error',
    async (_name, route) => {
      const api = apiFor(route);
      const seen: Array<[string, number]> = [];
      const send = async (path: string, body?: unknown) => {
        const response = await api.request(route.method.toUpperCase(), path, body === undefined ? {} : { body });
        seen.push([`${path} ${JSON.stringify(body)?.slice(0, 60)}`, response.status]);
        if (response.status >= 400)
          expect(response.body).toMatchObject({ statusCode: response.status, error: expect.any(String) });
      };
      const hasParams = route.path.includes(':');
      const validPath = hasParams ? pathWith(route, randomUUID()) : route.path;
      if (hasParams) {
        await send(pathWith(route, 'not-a-uuid'), route.body ? {} : undefined);
        await send(validPath, route.body ? {} : undefined);
      }
      if (route.body) {
        const keys = Object.keys(route.body.describe().keys ?? {});
        for (const value of WRONG_VALUES) {
          await send(validPath, Object.fromEntries(keys.map((key) => [key, value])));
        }
        // a refused value is quoted once, cut short (docs/decisions.md §3): 100 KB sent, a few KB answered
        const long = `2026-01-01${'x'.repeat(100_000)}`;
        const echoed = await api.request(route.method.toUpperCase(), validPath, {
          body: { ...Object.fromEntries(keys.map((key) => [key, long])), [long]: long },
        });
        if (echoed.status === 400) expect(JSON.stringify(echoed.body).length).toBeLessThan(4_000);
        await send(validPath, 'só texto');
        await send(validPath, [{ a: 1 }]);
        await fc.assert(
          fc.asyncProperty(
            fc.dictionary(fc.constantFrom(...keys, 'extra'), fc.jsonValue(), { maxKeys: 6 }),
            async (body) => {
              await send(validPath, body);
            },
          ),
          { numRuns: 8 },
        );
      }
      if (route.query) {
        const keys = Object.keys(route.query.describe().keys ?? {});
        const query = keys.map((key) => `${encodeURIComponent(key)}=%7B%7D&${encodeURIComponent(key)}[]=x`).join('&');
        await send(`${validPath}?${query}`, route.body ? {} : undefined);
      }
      const unexpected = seen.filter(([, status]) => status >= 400 && !CLIENT_ERRORS.includes(status));
      expect(unexpected).toEqual([]);
    },
  );
});
