import { addDays, todayUtc } from '@finance/shared/calendar';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { newAccount } from '../../../../test/support/transactions.ts';

/** A deferred trigger fails the commit of a command after all its rows were written. */
const FAIL_ON = (name: string, condition: string) => `
  create or replace function ledger.${name}() returns trigger language plpgsql as $$
  begin raise exception 'forced failure'; end $$;
  create constraint trigger ${name} after insert or update on ledger.transactions
    deferrable initially deferred for each row when (${condition}) execute function ledger.${name}();`;

describe('transactions: big commands are all or nothing', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = await newAccount(tenant.api);
  });
  afterAll(() => stack?.stop());

  it('when a 120-installment purchase fails on its last row, then nothing of it remains', async () => {
    await stack.sql(FAIL_ON('fail_last_installment', "new.installment_number = 120 and new.title = 'Falha'"));
    const body = {
      amount: 120000,
      date: '2026-01-31',
      is_expense: true,
      account_id: accountId,
      type: 'PARCELLED',
      installments: 120,
      is_full_amount: true,
    };
    const failed = await tenant.api.post('/v1/transactions', { ...body, title: 'Falha' });
    expect(failed.status).toBe(500);
    expect(failed.body.message).not.toContain('forced');
    const rows = await stack.sql("select count(*)::int as n from ledger.transactions where title = 'Falha'");
    expect(rows[0].n).toBe(0);
    const events = await stack.sql(
      "select count(*)::int as n from ledger.outbox_events where payload::text like '%Falha%'",
    );
    expect(events[0].n).toBe(0);
    const ok = await tenant.api.post('/v1/transactions', { ...body, title: 'Certa' });
    expect(ok.status).toBe(201);
    const sums = await stack.sql(
      "select count(*)::int as n, sum(amount)::int as total from ledger.transactions where title = 'Certa'",
    );
    expect(sums[0]).toEqual({ n: 120, total: 120000 });
  });

  it('when an update of 500 listed members fails halfway, then none changed; otherwise all 500 change', async () => {
    const start = addDays(todayUtc(), -200);
    const created = await tenant.api.post('/v1/transactions', {
      amount: 100,
      date: start,
      is_expense: true,
      title: 'Diária',
      account_id: accountId,
      type: 'RECURRENT',
      frequency: 'DAILY',
    });
    expect(created.status).toBe(201);
    const ids = (
      await stack.sql<{ id: string; series_index: number }>(
        `select id, series_index from ledger.transactions where connected_transaction_id = $1
         order by series_index limit 500`,
        [created.body.id],
      )
    ).map((row) => row.id);
    expect(ids).toHaveLength(500);
    await stack.sql(FAIL_ON('fail_half', "new.title = 'Boom' and new.series_index = 250"));
    const path = `/v2/transactions/duplicate/update-many?transactions_ids=${ids.join(',')}`;
    const failed = await tenant.api.put(path, { title: 'Boom', amount: 7 });
    expect(failed.status).toBe(500);
    const changed = await stack.sql(
      "select count(*)::int as n from ledger.transactions where title = 'Boom' or amount = 7",
    );
    expect(changed[0].n).toBe(0);
    const ok = await tenant.api.put(path, { title: 'Ok', amount: 7 });
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(500);
    const done = await stack.sql(
      "select count(*)::int as n from ledger.transactions where title = 'Ok' and amount = 7",
    );
    expect(done[0].n).toBe(500);
  });

  it('when ALL reaches more than 500 members of one series, then every member changes in one command', async () => {
    const created = await tenant.api.post('/v1/transactions', {
      amount: 100,
      date: addDays(todayUtc(), -300),
      is_expense: true,
      title: 'Longa',
      account_id: accountId,
      type: 'RECURRENT',
      frequency: 'DAILY',
    });
    const response = await tenant.api.put(
      `/v2/transactions/duplicate/update-many?transactions_ids=${created.body.id}`,
      { amount: 55, edition_type: 'ALL' },
    );
    expect(response.status).toBe(200);
    const rows = await stack.sql<{ n: number; changed: number }>(
      'select count(*)::int as n, count(*) filter (where amount = 55)::int as changed from ledger.transactions where connected_transaction_id = $1',
      [created.body.id],
    );
    expect(rows[0].n).toBeGreaterThan(600);
    expect(rows[0].changed).toBe(rows[0].n);
    expect(response.body).toHaveLength(rows[0].n);
  });
});
