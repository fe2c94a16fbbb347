import { randomUUID } from 'node:crypto';
import { publicRoutes } from '@finance/shared/contracts/index';
import type { ApiClient } from '../support/api-client.ts';
import { sampleBody } from '../support/route-requests.ts';
import { TestStack } from '../support/stack.ts';

// Idempotency-Key is per API key: a public route (a bank's or Pluggy's call, no key) has none
const writes = publicRoutes.filter((route) => route.method !== 'get' && !route.public);

/** Every write of the route table keeps its answer under an Idempotency-Key, whichever service owns it. */
describe('idempotency on every write route of the table', () => {
  let stack: TestStack;
  let company: ApiClient;

  beforeAll(async () => {
    stack = await TestStack.start();
    const userId = await stack.createUser();
    // an active company key reaches personal and business routes alike
    company = (await stack.companyClient(userId)).api;
  });
  afterAll(() => stack?.stop());

  it.each(writes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]))(
    'when %s is sent twice with one key, then the second answer is the first, replayed',
    async (_name, route) => {
      const key = `every-${randomUUID()}`;
      const path = route.path.replace(/:(\w+)/g, () => randomUUID());
      const sample = sampleBody(route);
      const send = () =>
        company.request(route.method.toUpperCase(), path, {
          ...sample,
          headers: { ...sample.headers, 'idempotency-key': key },
        });
      const first = await send();
      expect(first.status).toBeLessThan(500);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await send();
      expect(again.status).toBe(first.status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const [stored] = await stack.sql<{ n: number }>(
        `select count(*)::int as n from ${route.service}.idempotency_keys where idempotency_key = $1`,
        [key],
      );
      expect(stored.n).toBe(1);
    },
  );
});
