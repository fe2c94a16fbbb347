import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { createTransaction, newAccount, TRANSACTION_FIELDS } from '../../../../test/support/transactions.ts';

const PATH = '/v2/transactions/duplicate/update-many';

describe('transactions: update-many', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountA: string;
  let accountB: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountA = await newAccount(tenant.api, 0, 'A');
    accountB = await newAccount(tenant.api, 0, 'B');
  });
  afterAll(() => stack?.stop());

  const create = (body: Record<string, unknown>, api = tenant.api, account = accountA) =>
    createTransaction(api, account, body);
  const members = (seriesId: string) =>
    stack.sql<{ id: string; date: string; amount: number; title: string }>(
      `select id, to_char(date, 'YYYY-MM-DD') as date, amount::int, title from ledger.transactions
       where connected_transaction_id = $1 and deleted_at is null order by series_index`,
      [seriesId],
    );

  it('when several single transactions are updated, then only the sent fields change and all come back', async () => {
    const category = await tenant.api.post('/v1/categories', { name: 'Lazer', is_expense: true });
    const tag = await tenant.api.post('/v1/tags', { name: 'viagem' });
    const a = await create({ title: 'A', description: 'keep' });
    const b = await create({ title: 'B' });
    const response = await tenant.api.put(`${PATH}?transactions_ids=${a.id},${b.id}`, {
      amount: 999,
      paid: true,
      category_id: category.body.id,
      account_id: accountB,
      tag_ids: [tag.body.id],
    });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    for (const item of response.body) {
      expect(Object.keys(item).sort()).toEqual(TRANSACTION_FIELDS);
      expect(item).toMatchObject({ amount: 999, paid: true, category_id: category.body.id, account_id: accountB });
      expect(item.paid_at).not.toBeNull();
    }
    expect(response.body.find((t: { id: string }) => t.id === a.id)).toMatchObject({ title: 'A', description: 'keep' });
    const tags = await stack.sql('select count(*)::int as n from ledger.transaction_tags where tag_id = $1', [
      tag.body.id,
    ]);
    expect(tags[0].n).toBe(2);
    const unpaid = await tenant.api.put(`${PATH}?transactions_ids[]=${a.id}`, { paid: false, tag_ids: [] });
    expect(unpaid.body[0]).toMatchObject({ paid: false, paid_at: null });
    const left = await stack.sql('select count(*)::int as n from ledger.transaction_tags where transaction_id = $1', [
      a.id,
    ]);
    expect(left[0].n).toBe(0);
  });

  it('when the ids come repeated and in the bracket form, then all of them are updated', async () => {
    const a = await create({});
    const b = await create({});
    const c = await create({});
    const response = await tenant.api.put(
      `${PATH}?transactions_ids=${a.id}&transactions_ids=${b.id}&transactions_ids[]=${c.id}`,
      { title: 'Novo' },
    );
    expect(response.status).toBe(200);
    expect(response.body.map((t: { title: string }) => t.title)).toEqual(['Novo', 'Novo', 'Novo']);
  });

  it('when THIS_AND_NEXT moves the date, then later members shift by the same days', async () => {
    const first = await create({ type: 'PARCELLED', installments: 4, date: '2026-01-10' });
    const list = await members(first.id);
    const response = await tenant.api.put(`${PATH}?transactions_ids=${list[1].id}`, {
      date: '2026-02-15',
      title: 'Parcela',
      edition_type: 'THIS_AND_NEXT',
    });
    expect(response.status).toBe(200);
    expect(response.body.map((t: { date: string }) => t.date)).toEqual([
      '2026-02-15T00:00:00.000Z',
      '2026-03-15T00:00:00.000Z',
      '2026-04-15T00:00:00.000Z',
    ]);
    expect((await members(first.id)).map((m) => [m.date, m.title])).toEqual([
      ['2026-01-10', 'Item'],
      ['2026-02-15', 'Parcela'],
      ['2026-03-15', 'Parcela'],
      ['2026-04-15', 'Parcela'],
    ]);
  });

  it('when ALL is sent, then every member changes; THIS changes only the given one', async () => {
    const first = await create({ type: 'PARCELLED', installments: 3 });
    const list = await members(first.id);
    await tenant.api.put(`${PATH}?transactions_ids=${list[2].id}`, { amount: 42, edition_type: 'ALL' });
    expect((await members(first.id)).map((m) => m.amount)).toEqual([42, 42, 42]);
    await tenant.api.put(`${PATH}?transactions_ids=${list[2].id}`, { amount: 7 });
    expect((await members(first.id)).map((m) => m.amount)).toEqual([42, 42, 7]);
  });

  it.each([
    [{ type: 'RECURRENT' }, 'type'],
    [{ installments: 5 }, 'installments'],
    [{ frequency: 'WEEKLY' }, 'frequency'],
    [{ is_full_amount: true }, 'is_full_amount'],
  ])('when %j would change the series, then 400 and nothing changes', async (patch, field) => {
    const first = await create({ type: 'PARCELLED', installments: 3 });
    const response = await tenant.api.put(`${PATH}?transactions_ids=${first.id}`, { ...patch, title: 'Mudou' });
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await members(first.id)).map((m) => m.title)).toEqual(['Item', 'Item', 'Item']);
  });

  it('when the unchanged series fields are resent, then the update goes through', async () => {
    const first = await create({ type: 'PARCELLED', installments: 3 });
    const response = await tenant.api.put(`${PATH}?transactions_ids=${first.id}`, {
      type: 'PARCELLED',
      installments: 3,
      is_full_amount: false,
      title: 'Igual',
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['', 'transactions_ids'],
    ['?transactions_ids=abc', 'transactions_ids'],
    [
      `?transactions_ids=${Array.from({ length: 501 }, (_, i) => `0190a1b2-0000-7000-8000-${String(i).padStart(12, '0')}`).join(',')}`,
      'transactions_ids',
    ],
  ])('when the ids are %#, then 400', async (query, field) => {
    const response = await tenant.api.put(`${PATH}${query}`, { title: 'x' });
    expect(response.status).toBe(400);
    expect(response.body.details[0].field).toBe(field);
  });

  it('when the body has an unknown field or a bad value, then 400 with details', async () => {
    const t = await create({});
    const response = await tenant.api.put(`${PATH}?transactions_ids=${t.id}`, { amount: -1, nope: 1 });
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['amount', 'nope']);
  });

  it("when one id is another user's or the company's, then 404 and nothing changes", async () => {
    const mine = await create({ title: 'Meu' });
    const other = await stack.tenant();
    const otherAccount = await newAccount(other.api);
    const theirs = await create({ title: 'Deles' }, other.api, otherAccount);
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = await newAccount(company.api);
    const companys = await create({ title: 'Empresa' }, company.api, companyAccount);
    for (const foreign of [theirs.id, companys.id]) {
      const response = await tenant.api.put(`${PATH}?transactions_ids=${mine.id},${foreign}`, { title: 'X' });
      expect(response.status).toBe(404);
    }
    const moved = await tenant.api.put(`${PATH}?transactions_ids=${mine.id}`, { account_id: companyAccount });
    expect(moved.status).toBe(404);
    const rows = await stack.sql('select title, account_id from ledger.transactions where id in ($1, $2, $3)', [
      mine.id,
      theirs.id,
      companys.id,
    ]);
    expect(rows.map((row) => row.title).sort()).toEqual(['Deles', 'Empresa', 'Meu']);
    expect(rows.find((row) => row.title === 'Meu')?.account_id).toBe(accountA);
  });

  it('when a personal key sets business fields, then 403; clearing them with null is allowed', async () => {
    const t = await create({});
    expect((await tenant.api.put(`${PATH}?transactions_ids=${t.id}`, { document_number: 'NF' })).status).toBe(403);
    const cleared = await tenant.api.put(`${PATH}?transactions_ids=${t.id}`, { document_number: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body[0].document_number).toBeNull();
  });

  it('when a company key clears business fields with null, then they are null', async () => {
    const company = await stack.companyClient(tenant.userId);
    const account = await newAccount(company.api);
    const t = await create({ document_number: 'NF 1', competence_date: '2026-01-01' }, company.api, account);
    const response = await company.api.put(`${PATH}?transactions_ids=${t.id}`, {
      document_number: null,
      competence_date: null,
    });
    expect(response.body[0]).toMatchObject({ document_number: null, competence_date: null });
  });

  it('when one leg of a transfer is edited, then both legs change; its account or direction cannot', async () => {
    const out = await tenant.api.post('/v1/transactions/create-transfer', {
      amount: 1000,
      date: '2026-03-01',
      sent_account_id: accountA,
      received_account_id: accountB,
    });
    const response = await tenant.api.put(`${PATH}?transactions_ids=${out.body.id}`, {
      amount: 1500,
      date: '2026-03-05',
      paid: true,
    });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    const legs = await stack.sql(
      `select amount::int, to_char(date, 'YYYY-MM-DD') as date, paid, is_expense, account_id
       from ledger.transactions where connected_transaction_id = $1 order by series_index`,
      [out.body.id],
    );
    expect(legs).toEqual([
      { amount: 1500, date: '2026-03-05', paid: true, is_expense: true, account_id: accountA },
      { amount: 1500, date: '2026-03-05', paid: true, is_expense: false, account_id: accountB },
    ]);
    const moved = await tenant.api.put(`${PATH}?transactions_ids=${out.body.id}`, { account_id: accountB });
    expect(moved.status).toBe(400);
    expect(moved.body.details[0].field).toBe('account_id');
  });

  it('when a read-only key updates, then 403', async () => {
    const t = await create({});
    expect((await tenant.readOnly.put(`${PATH}?transactions_ids=${t.id}`, { title: 'x' })).status).toBe(403);
  });
});
