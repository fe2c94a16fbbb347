import { randomUUID } from 'node:crypto';
import { publicRoutes } from '@finance/shared/contracts/index';
import { TestStack } from '../support/stack.ts';

const writes = publicRoutes.filter((route) => route.method !== 'get');
const reads = publicRoutes.filter((route) => route.method === 'get');
const pathOf = (path: string) => path.replace(/:(\w+)/g, () => randomUUID());

describe('scopes on every route of the table', () => {
  let stack: TestStack;
  let readKey: ReturnType<TestStack['client']>;
  let writeKey: ReturnType<TestStack['client']>;

  beforeAll(async () => {
    stack = await TestStack.start();
    const userId = await stack.createUser();
    const profileId = await stack.createCompany(userId);
    readKey = stack.client(await stack.createKey(userId, ['read'], profileId));
    writeKey = stack.client(await stack.createKey(userId, ['write'], profileId));
  });
  afterAll(() => stack?.stop());

  const tableSizes = async () =>
    stack.sql<{ n: number }>(
      `select sum(n_tup_ins + n_tup_upd + n_tup_del)::int as n from pg_stat_user_tables where schemaname in ('ledger', 'billing', 'insights')`,
    );

  it.each(writes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]))(
    'when a read-only key calls %s, then 403 and nothing is written',
    async (_name, route) => {
      const response = await readKey.request(route.method.toUpperCase(), pathOf(route.path), {
        body: route.body ? (route.example ?? {}) : undefined,
      });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    },
  );

  it.each(reads.map((route) => [route.path, route]))(
    'when a write-only key reads %s, then 403',
    async (_path, route) => {
      const response = await writeKey.get(pathOf(route.path));
      expect(response.status).toBe(403);
    },
  );

  it('when every refused write has run, then no table of any service changed', async () => {
    // statistics are per database and flushed lazily, so compare two snapshots around a refused batch
    const before = await tableSizes();
    for (const route of writes) {
      await readKey.request(route.method.toUpperCase(), pathOf(route.path), { body: route.example ?? {} });
    }
    await stack.sql('select pg_stat_force_next_flush()').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await tableSizes()).toEqual(before);
  });
});
