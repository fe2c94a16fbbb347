import { publicRoutes } from '@finance/shared/contracts/index';
import { type Tenant, TestStack } from '../support/stack.ts';

const forged = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

/** Every listing of docs/decisions.md §4, found from the route table so a new one is covered by itself. */
const listings = publicRoutes.filter(
  (route) => route.method === 'get' && !route.path.includes(':') && route.query?.describe().keys?.cursor,
);

describe('listing cursors', () => {
  let stack: TestStack;
  let personal: Tenant;
  let company: Awaited<ReturnType<TestStack['companyClient']>>;

  beforeAll(async () => {
    stack = await TestStack.start();
    personal = await stack.tenant();
    company = await stack.companyClient(personal.userId);
  });
  afterAll(() => stack?.stop());

  it('when the route table is read, then the listings are found', () => {
    expect(listings.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/v1/accounts', '/v1/transactions', '/v1/credit-cards', '/v1/notifications']),
    );
  });

  it.each(listings.map((route) => [route.path, route]))(
    'when %s gets a forged or garbled cursor, then 400 with details, never a failed query',
    async (_path, route) => {
      const api = route.business ? company.api : personal.api;
      for (const cursor of [forged(['not-a-uuid']), forged(['2026-13-45', 'x']), forged([1, 2]), 'garbage!!']) {
        const response = await api.get(`${route.path}?cursor=${encodeURIComponent(cursor)}`);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      }
      const first = await api.get(`${route.path}?limit=1`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ data: expect.any(Array), next_cursor: first.body.next_cursor ?? null });
    },
  );
});
