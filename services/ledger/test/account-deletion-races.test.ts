import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

/**
 * An account deleted while a write to it is in flight: the two never interleave. A test connection plays
 * one side inside an open transaction, the API the other, so the interleaving is forced, not hoped for.
 */
describe('account deletion racing writes to the account', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let side: pg.Client;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    side = new pg.Client({ connectionString: stack.databaseUrl });
    await side.connect();
  });
  afterAll(async () => {
    await side?.end();
    await stack?.stop();
  });

  const newAccount = async (name: string) => (await tenant.api.post('/v1/accounts', { name, logo: '341' })).body.id;
  const liveOn = async (accountId: string) =>
    (
      await stack.sql<{ n: number }>(
        'select count(*)::int as n from ledger.transactions where account_id = $1 and deleted_at is null',
        [accountId],
      )
    )[0].n;

  it('when a deletion holds the account while a transaction is created on it, then the creation waits and answers 404', async () => {
    await newAccount('Principal');
    const doomed = await newAccount('Condenada');
    await side.query('begin');
    await side.query('select id from ledger.accounts where id = $1 for update', [doomed]);
    let settled = false;
    const creating = tenant.api
      .post('/v1/transactions', {
        amount: 1000,
        date: '2026-03-05',
        is_expense: true,
        title: 'Compra',
        account_id: doomed,
      })
      .finally(() => {
        settled = true;
      });
    await sleep(300);
    expect(settled).toBe(false);
    await side.query('update ledger.accounts set deleted_at = now() where id = $1', [doomed]);
    await side.query('commit');
    const response = await creating;
    expect(response.status).toBe(404);
    expect(await liveOn(doomed)).toBe(0);
  });

  it('when a write holds the account while it is deleted, then the deletion waits and takes the new entry with it', async () => {
    await newAccount('Outra');
    const doomed = await newAccount('Apagada');
    const written = randomUUID();
    await side.query('begin');
    await side.query('select id from ledger.accounts where id = $1 for key share', [doomed]);
    await side.query(
      `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, type, account_id, paid,
         created_at, updated_at)
       values ($1, $2, 500, '2026-03-05', 'Em voo', true, 'FIXED', $3, true, now(), now())`,
      [written, tenant.userId, doomed],
    );
    let settled = false;
    const deleting = tenant.api.delete(`/v1/accounts/${doomed}`).finally(() => {
      settled = true;
    });
    await sleep(300);
    expect(settled).toBe(false);
    await side.query('commit');
    expect((await deleting).status).toBe(200);
    expect(await liveOn(doomed)).toBe(0);
    const [row] = await stack.sql('select deleted_at from ledger.transactions where id = $1', [written]);
    expect(row.deleted_at).not.toBeNull();
  });
});
