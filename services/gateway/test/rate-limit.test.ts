import { TestStack } from '../../../test/support/stack.ts';

describe('gateway: rate limit per key', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => stack?.stop());

  it('when a key exceeds its limit, then 429 with Retry-After and RateLimit headers, and other keys are unaffected', async () => {
    const tenant = await stack.tenant();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof tenant.api.get>> | undefined;
    for (let i = 0; i < 4; i += 1) {
      last = await tenant.api.get('/v1/accounts');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.headers.get('ratelimit')).toMatch(/r=0/);
    expect((await tenant.readOnly.get('/v1/accounts')).status).toBe(200);
  });
});

describe('gateway: rate limit shared by replicas', () => {
  const LIMIT = 200;
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start({ env: { RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_MS: '600000' } });
  });
  afterAll(() => stack?.stop());

  it('when one key floods two gateway replicas at once, then 429 comes within 5 % of the configured count, never after it', async () => {
    const tenant = await stack.tenant();
    const replica = await stack.startGatewayReplica();
    const clients = [tenant.api, replica.client(tenant.key)];
    const statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      // unknown paths are counted like any other request and cost the services nothing
      const batch = await Promise.all(
        Array.from({ length: 100 }, (_, i) => clients[i % 2].get(`/v1/nowhere-${i}`).then((r) => r.status)),
      );
      statuses.push(...batch);
    }
    const passed = statuses.filter((status) => status === 404).length;
    expect(statuses.filter((status) => status !== 404 && status !== 429)).toEqual([]);
    expect(passed).toBeLessThanOrEqual(LIMIT);
    expect(passed).toBeGreaterThanOrEqual(Math.ceil(LIMIT * 0.95));
  });
});
