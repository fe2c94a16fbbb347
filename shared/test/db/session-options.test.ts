import { runSql } from '@finance/shared/db/sql';
import { TestStack } from '../../../test/support/stack.ts';

describe("sessionOptions: every service's connections, on a real PostgreSQL", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it.each(['ledger', 'billing', 'insights'] as const)(
    "when the %s service reads, then unqualified names are its schema's and a random page read is priced 1.1",
    async (service) => {
      const em = stack.service(service).runtime.orm.em.fork();
      const [row] = await runSql<{ search_path: string; random_page_cost: string }>(
        em,
        "select current_setting('search_path') as search_path, current_setting('random_page_cost') as random_page_cost",
      );
      expect(row).toEqual({ search_path: `${service},public`, random_page_cost: '1.1' });
    },
  );
});
