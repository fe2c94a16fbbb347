import { forEachRow } from '@finance/shared/db/sql';
import { TestStack } from '../../../test/support/stack.ts';

describe("forEachRow: a statement's rows handed on one by one, on a real PostgreSQL", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  const em = () => stack.service('ledger').runtime.orm.em.fork();
  const collect = async (sql: string, params: unknown[] = []) => {
    const rows: number[] = [];
    await forEachRow<{ n: number }>(em(), sql, params, (row) => rows.push(row.n));
    return rows;
  };

  it('when a statement returns thousands of rows, then each arrives once and in order, `?` and lists bound', async () => {
    const rows = await collect('select n from generate_series(1, ?::int) n order by n', [5000]);
    expect(rows).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(
      await collect('select n from generate_series(1, 10) n where n in (?) and n > ? order by n', [[2, 3, 5, 8], 2]),
    ).toEqual([3, 5, 8]);
  });

  it('when statements fail midway or the caller throws on a row, then each rejects and no connection is lost', async () => {
    // more failures than the pool has connections: a connection kept by any of them would leave the last read waiting
    const pool = stack.service('ledger').runtime.orm.config.get('pool')?.max ?? 10;
    for (let i = 0; i < pool + 2; i++) {
      const seen: number[] = [];
      await expect(
        forEachRow<{ n: number }>(em(), 'select 10 / (3000 - n) as n from generate_series(1, 5000) n', [], (row) =>
          seen.push(row.n),
        ),
      ).rejects.toMatchObject({ code: '22012' });
      // PostgreSQL sent the rows before the one that failed, and they were handed on
      expect(seen).toHaveLength(2999);
      let calls = 0;
      await expect(
        forEachRow(em(), 'select n from generate_series(1, 100) n', [], () => {
          calls += 1;
          if (calls === 7) throw new Error('linha recusada');
        }),
      ).rejects.toThrow('linha recusada');
      // the rows after the failing one are read off the connection but not handed on
      expect(calls).toBe(7);
    }
    expect(await collect('select 1 as n')).toEqual([1]);
  });

  it("when called inside a transaction, then it reads the transaction's own writes", async () => {
    const rows = await em().transactional(async (tx) => {
      await tx
        .getConnection()
        .execute('create temporary table streamed (n int) on commit drop', [], 'run', tx.getTransactionContext());
      await tx
        .getConnection()
        .execute('insert into streamed select generate_series(1, 3)', [], 'run', tx.getTransactionContext());
      const seen: number[] = [];
      await forEachRow<{ n: number }>(tx, 'select n from streamed order by n', [], (row) => seen.push(row.n));
      return seen;
    });
    expect(rows).toEqual([1, 2, 3]);
  });
});
