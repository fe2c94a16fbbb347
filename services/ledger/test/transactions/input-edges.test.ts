import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { newAccount } from '../../../../test/support/transactions.ts';

const cursorOf = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
const fields = (response: { body: { details?: Array<{ field: string }> } }) =>
  (response.body.details ?? []).map((detail) => detail.field);

describe('transactions and references: edge input answers 400, never 500', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let company: Awaited<ReturnType<TestStack['companyClient']>>;
  let account: string;
  let companyAccount: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    company = await stack.companyClient(tenant.userId);
    account = await newAccount(tenant.api);
    companyAccount = await newAccount(company.api);
  });
  afterAll(() => stack?.stop());

  const create = async (body: Record<string, unknown>, api = tenant.api, accountId = account) => {
    const response = await api.post('/v1/transactions', {
      amount: 500,
      is_expense: true,
      title: 'Item',
      date: '2026-01-31',
      account_id: accountId,
      ...body,
    });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return response.body;
  };
  const rowCount = async () =>
    Number((await stack.sql<{ n: string }>('select count(*) as n from ledger.transactions'))[0].n);

  it('when a date that does not exist is sent anywhere, then 400 naming it and nothing changes', async () => {
    const series = await create({ type: 'PARCELLED', installments: 3 });
    const unpaid = await create({}, company.api, companyAccount);
    const before = await rowCount();
    const cases: Array<[Promise<{ status: number; body: any }>, string]> = [
      [tenant.api.get('/v1/transactions?start_date=2026-02-31'), 'start_date'],
      [tenant.api.get('/v1/transactions?end_date=2026-13-01'), 'end_date'],
      [
        tenant.api.delete(`/v1/transactions/${series.id}?edition_type=THIS_AND_NEXT&edition_date=2026-02-30`),
        'edition_date',
      ],
      [
        tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${series.id}`, {
          title: 'Novo',
          edition_type: 'THIS_AND_NEXT',
          edition_date: '2026-02-30',
        }),
        'edition_date',
      ],
      [
        company.api.post(`/v2/transactions/${unpaid.id}/settle`, { account_id: companyAccount, paid_at: '2026-13-01' }),
        'paid_at',
      ],
    ];
    for (const [request, field] of cases) {
      const response = await request;
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(fields(response)).toEqual([field]);
    }
    expect(await rowCount()).toBe(before);
    const [stored] = await stack.sql<{ paid: boolean; titles: string }>(
      `select bool_or(paid) as paid, string_agg(distinct title, ',') as titles from ledger.transactions
       where connected_transaction_id = $1 or id = $2`,
      [series.id, unpaid.id],
    );
    expect(stored).toEqual({ paid: false, titles: 'Item' });
  });

  it('when a date lies outside 1900..2999, then 400 instead of dates past the calendar', async () => {
    const series = await create({ type: 'PARCELLED', installments: 12 });
    const before = await rowCount();
    for (const date of ['9999-06-01', '1899-12-31']) {
      const created = await tenant.api.post('/v1/transactions', {
        amount: 100,
        is_expense: true,
        title: 'x',
        date,
        account_id: account,
        type: 'PARCELLED',
        installments: 12,
      });
      expect(created.status).toBe(400);
      expect(fields(created)).toEqual(['date']);
      const moved = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${series.id}`, {
        date,
        edition_type: 'ALL',
      });
      expect(moved.status).toBe(400);
      expect(fields(moved)).toEqual(['date']);
    }
    const transfer = await tenant.api.post('/v1/transactions/create-transfer', {
      amount: 10,
      date: '3000-01-01',
      sent_account_id: account,
      received_account_id: await newAccount(tenant.api),
    });
    expect(transfer.status).toBe(400);
    expect(await rowCount()).toBe(before);
    const edge = await create({ date: '2999-12-31', type: 'PARCELLED', installments: 120 });
    expect(edge.date).toBe('2999-12-31T00:00:00.000Z');
    expect((await tenant.api.post(`/v1/transactions/${edge.id}/installments`, { quantity: 120 })).body).toEqual({
      created: 120,
    });
  });

  it('when a listing cursor is well-formed but holds no id or date, then 400', async () => {
    const personal = ['/v1/accounts', '/v1/tags', '/v1/categories', '/v1/subcategories'];
    const business = ['/v2/business/contacts', '/v2/business/cost-centers'];
    for (const [api, path] of [
      ...personal.map((path) => [tenant.api, path] as const),
      ...business.map((path) => [company.api, path] as const),
    ]) {
      const response = await api.get(`${path}?cursor=${cursorOf(['x'])}`);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(fields(response)).toEqual(['cursor']);
    }
    for (const values of [
      ['x', 'y'],
      ['2026-02-31', '0190a1b2-0000-7000-8000-000000000001'],
      ['2026-01-01', 'nope'],
    ]) {
      const response = await tenant.api.get(`/v1/transactions?cursor=${cursorOf(values)}`);
      expect(response.status).toBe(400);
      expect(fields(response)).toEqual(['cursor']);
    }
  });

  it('when a subcategory is sent without its category, then the entry is filed under its category', async () => {
    const subcategories = (await tenant.api.get('/v1/subcategories?limit=500')).body.data;
    const [first, second] = [
      subcategories[0],
      subcategories.find((s: any) => s.category_id !== subcategories[0].category_id),
    ];
    const created = await create({ subcategory_id: first.id, type: 'PARCELLED', installments: 2 });
    expect([created.category_id, created.subcategory_id]).toEqual([first.category_id, first.id]);
    const stored = await stack.sql<{ category_id: string }>(
      'select category_id from ledger.transactions where connected_transaction_id = $1',
      [created.id],
    );
    expect(stored.map((row) => row.category_id)).toEqual([first.category_id, first.category_id]);
    const updated = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${created.id}`, {
      subcategory_id: second.id,
      edition_type: 'ALL',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.map((t: any) => [t.category_id, t.subcategory_id])).toEqual([
      [second.category_id, second.id],
      [second.category_id, second.id],
    ]);
    const mismatch = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${created.id}`, {
      category_id: first.category_id,
      subcategory_id: second.id,
    });
    expect(mismatch.status).toBe(400);
    expect(fields(mismatch)).toEqual(['subcategory_id']);
    // a null category with a subcategory: the subcategory's category, never a subcategory without one
    const nulled = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${created.id}`, {
      category_id: null,
      subcategory_id: first.id,
    });
    expect(nulled.status).toBe(200);
    expect(nulled.body.map((t: any) => [t.category_id, t.subcategory_id])).toEqual([[first.category_id, first.id]]);
    const cleared = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${created.id}`, {
      category_id: null,
    });
    expect(cleared.body.map((t: any) => [t.category_id, t.subcategory_id])).toEqual([[null, null]]);
  });

  it('when a read-only key creates or edits an account or settles a title, then 403 and nothing changes', async () => {
    const unpaid = await create({}, company.api, companyAccount);
    const readOnlyCompany = stack.client(await stack.createKey(tenant.userId, ['read'], company.profileId));
    const accounts = async () =>
      await stack.sql<{ name: string }>('select name from ledger.accounts where id = $1 or user_id = $2 order by id', [
        account,
        tenant.userId,
      ]);
    const before = await accounts();
    expect((await tenant.readOnly.post('/v1/accounts', { name: 'Nova', logo: '341' })).status).toBe(403);
    expect((await tenant.readOnly.put(`/v1/accounts/${account}`, { name: 'Nova', logo: '341' })).status).toBe(403);
    const settle = await readOnlyCompany.post(`/v2/transactions/${unpaid.id}/settle`, { account_id: companyAccount });
    expect(settle.status).toBe(403);
    expect(await accounts()).toEqual(before);
    expect((await company.api.get(`/v1/transactions/${unpaid.id}`)).body.paid).toBe(false);
  });

  describe('ISO 8601 date inputs', () => {
    it('when settle paid_at and a series edition_date come as ISO 8601, then the day as written is used', async () => {
      const company = await stack.companyClient(tenant.userId);
      const companyAccount = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      const open = await company.api.post('/v1/transactions', {
        account_id: companyAccount,
        amount: 1_000,
        date: '2026-03-10',
        is_expense: true,
        title: 'Boleto',
      });
      const settled = await company.api.post(`/v2/transactions/${open.body.id}/settle`, {
        account_id: companyAccount,
        paid_at: '2026-03-15T22:00:00-03:00',
      });
      expect(settled.status).toBe(200);
      const [paid] = await stack.sql<{ day: string }>(
        `select to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD') as day from ledger.transactions where id = $1`,
        [open.body.id],
      );
      expect(paid.day).toBe('2026-03-15');

      const series = await tenant.api.post('/v1/transactions', {
        account_id: account,
        amount: 3_000,
        date: '2026-03-10',
        is_expense: true,
        title: 'Parcelado',
        type: 'PARCELLED',
        installments: 3,
      });
      expect(series.status).toBe(201);
      const members = await stack.sql<{ id: string; date: string }>(
        `select id, to_char(date, 'YYYY-MM-DD') as date from ledger.transactions
         where connected_transaction_id = $1 order by date`,
        [series.body.id],
      );
      expect(members.map((m) => m.date)).toEqual(['2026-03-10', '2026-04-10', '2026-05-10']);
      const editionDate = encodeURIComponent('2026-04-10T23:00:00-03:00');
      const removed = await tenant.api.delete(
        `/v1/transactions/${members[1].id}?edition_type=THIS_AND_NEXT&edition_date=${editionDate}`,
      );
      expect(removed.status).toBe(200);
      const live = await stack.sql<{ date: string }>(
        `select to_char(date, 'YYYY-MM-DD') as date from ledger.transactions
         where connected_transaction_id = $1 and deleted_at is null order by date`,
        [series.body.id],
      );
      expect(live.map((m) => m.date)).toEqual(['2026-03-10']);
    });
  });

  describe('currencies', () => {
    it('when currency is not an ISO 4217 code ("abc", "NaN"), then 400 in Portuguese and nothing is written; "usd" is stored as USD', async () => {
      const body = { account_id: account, amount: 100, date: '2026-03-10', is_expense: true, title: 'Moeda' };
      const before = await stack.sql('select count(*)::int as n from ledger.transactions');
      for (const currency of ['abc', 'NaN', 'BR']) {
        const response = await tenant.api.post('/v1/transactions', { ...body, currency });
        expect(response.status).toBe(400);
        expect(response.body.details).toEqual([
          { field: 'currency', message: 'currency deve ser um código de moeda ISO 4217 (ex.: BRL, USD, EUR)' },
        ]);
      }
      expect(await stack.sql('select count(*)::int as n from ledger.transactions')).toEqual(before);
      const usd = await tenant.api.post('/v1/transactions', { ...body, currency: 'usd' });
      expect(usd.status).toBe(201);
      expect(usd.body.currency).toBe('USD');
    });
  });
});
