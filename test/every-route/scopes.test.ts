import { randomUUID } from 'node:crypto';
import { publicRoutes } from '@finance/shared/contracts/index';
import { TestStack } from '../support/stack.ts';
import { tableContents } from '../support/table-contents.ts';

// a public route (the Open Finance callback) takes no key, so no scope: its own tests cover it
const keyed = publicRoutes.filter((route) => !route.public);
const writes = keyed.filter((route) => route.method !== 'get');
const reads = keyed.filter((route) => route.method === 'get');
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
    const before = await tableContents(stack);
    expect(Object.keys(before).length).toBeGreaterThan(20);
    for (const route of writes) {
      await readKey.request(route.method.toUpperCase(), pathOf(route.path), { body: route.example ?? {} });
    }
    expect(await tableContents(stack)).toEqual(before);
  });
});
