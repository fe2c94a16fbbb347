import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { newAccount } from '../../../../test/support/transactions.ts';

describe('transactions: listing, reading and deleting', () => {
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

  const create = async (body: Record<string, unknown>) => {
    const response = await tenant.api.post('/v1/transactions', {
      amount: 500,
      is_expense: true,
      title: 'Item',
      account_id: accountA,
      ...body,
    });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return response.body;
  };
  const live = async (seriesId: string) =>
    (
      await stack.sql<{ date: string }>(
        `select to_char(date, 'YYYY-MM-DD') as date from ledger.transactions
         where connected_transaction_id = $1 and deleted_at is null order by date`,
        [seriesId],
      )
    ).map((row) => row.date);

  it('when listing with filters and small pages, then rows come by date then creation with a cursor', async () => {
    const user = await stack.tenant();
    const a = await newAccount(user.api, 0, 'A');
    const b = await newAccount(user.api, 0, 'B');
    const make = (body: Record<string, unknown>) =>
      user.api.post('/v1/transactions', { amount: 100, is_expense: true, title: 'x', account_id: a, ...body });
    const t3 = (await make({ date: '2026-01-03' })).body;
    const t1 = (await make({ date: '2026-01-01' })).body;
    const t2a = (await make({ date: '2026-01-02', paid: true })).body;
    const t2b = (await make({ date: '2026-01-02', is_expense: false, account_id: b })).body;
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await user.api.get(`/v1/transactions?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      all.push(...page.body.data.map((t: { id: string }) => t.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(all).toEqual([t1.id, t2a.id, t2b.id, t3.id]);
    const ids = async (query: string) =>
      (await user.api.get(`/v1/transactions?${query}`)).body.data.map((t: { id: string }) => t.id);
    expect(await ids('start_date=2026-01-02&end_date=2026-01-02')).toEqual([t2a.id, t2b.id]);
    expect(await ids(`account_id=${b}`)).toEqual([t2b.id]);
    expect(await ids('is_expense=false')).toEqual([t2b.id]);
    expect(await ids('paid=true')).toEqual([t2a.id]);
    expect(await ids('type=FIXED')).toHaveLength(4);
    expect(await ids('type=RECURRENT')).toEqual([]);
    const foreign = await user.api.get(`/v1/transactions?account_id=${accountA}`);
    expect(foreign.status).toBe(404);
    const company = await stack.companyClient(user.userId);
    const companyCategory = await company.api.post('/v1/categories', { name: 'Da empresa', is_expense: true });
    expect((await user.api.get(`/v1/transactions?category_id=${companyCategory.body.id}`)).status).toBe(404);
  });

  it("when listing by a card of another user or of the company, then 404; by the context's card, its purchases", async () => {
    const user = await stack.tenant();
    const account = await newAccount(user.api);
    const newCard = async (api: typeof user.api, accountId: string) =>
      (
        await api.post('/v1/credit-cards', {
          name: 'Cartão',
          account_id: accountId,
          closing_date: 10,
          expiring_date: 17,
        })
      ).body.id as string;
    const card = await newCard(user.api, account);
    const bought = await user.api.post('/v1/transactions', {
      amount: 900,
      is_expense: true,
      title: 'Compra',
      date: '2026-03-05',
      credit_card_id: card,
    });
    expect(bought.status).toBe(201);
    await user.api.post('/v1/transactions', { amount: 100, is_expense: true, title: 'x', account_id: account });
    const mine = await user.api.get(`/v1/transactions?credit_card_id=${card}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((t: { id: string }) => t.id)).toEqual([bought.body.id]);
    const other = await stack.tenant();
    const company = await stack.companyClient(user.userId);
    const companyCard = await newCard(company.api, await newAccount(company.api));
    for (const [api, cardId] of [
      [other.api, card],
      [company.api, card],
      [user.api, companyCard],
    ] as const) {
      const response = await api.get(`/v1/transactions?credit_card_id=${cardId}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        message: 'Cartão de crédito não encontrado (credit_card_id)',
        statusCode: 404,
        error: 'Not Found',
      });
    }
    expect((await user.api.get('/v1/transactions?credit_card_id=0190a0b0-0000-7000-8000-000000000000')).status).toBe(
      404,
    );
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['start_date=2026-1-1', 'start_date'],
    ['type=X', 'type'],
    ['account_id=nope', 'account_id'],
    ['cursor=%%%', 'cursor'],
  ])('when the listing query has %s, then 400 naming %s', async (query, field) => {
    const response = await tenant.api.get(`/v1/transactions?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("when reading another user's or the company's transaction, then 404", async () => {
    const mine = await create({ date: '2026-02-01' });
    const other = await stack.tenant();
    const company = await stack.companyClient(tenant.userId);
    for (const client of [other.api, company.api]) {
      expect((await client.get(`/v1/transactions/${mine.id}`)).status).toBe(404);
      expect((await client.delete(`/v1/transactions/${mine.id}`)).status).toBe(404);
      const listed = await client.get('/v1/transactions');
      expect(listed.body.data.map((t: { id: string }) => t.id)).not.toContain(mine.id);
    }
    expect((await tenant.api.get(`/v1/transactions/${mine.id}`)).status).toBe(200);
    expect((await tenant.api.get('/v1/transactions/not-a-uuid')).status).toBe(400);
  });

  it('when a single transaction is deleted, then it vanishes from reads and counts once', async () => {
    const t = await create({ date: '2026-02-02' });
    expect((await tenant.readOnly.delete(`/v1/transactions/${t.id}`)).status).toBe(403);
    const response = await tenant.api.delete(`/v1/transactions/${t.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deleted: 1 });
    expect((await tenant.api.get(`/v1/transactions/${t.id}`)).status).toBe(404);
    expect((await tenant.api.delete(`/v1/transactions/${t.id}`)).status).toBe(404);
    const [row] = await stack.sql('select deleted_at from ledger.transactions where id = $1', [t.id]);
    expect(row.deleted_at).not.toBeNull();
  });

  it('when deleting series members THIS, THIS_AND_NEXT and ALL, then exactly the scope goes', async () => {
    const first = await create({ date: '2026-01-15', type: 'PARCELLED', installments: 6 });
    const members = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where connected_transaction_id = $1 order by series_index',
      [first.id],
    );
    expect((await tenant.api.delete(`/v1/transactions/${members[1].id}?edition_type=THIS`)).body).toEqual({
      deleted: 1,
    });
    expect(await live(first.id)).toEqual(['2026-01-15', '2026-03-15', '2026-04-15', '2026-05-15', '2026-06-15']);
    const next = await tenant.api.delete(
      `/v1/transactions/${members[2].id}?edition_type=THIS_AND_NEXT&edition_date=2026-05-01`,
    );
    expect(next.body).toEqual({ deleted: 2 });
    expect(await live(first.id)).toEqual(['2026-01-15', '2026-03-15', '2026-04-15']);
    const fromOwnDate = await tenant.api.delete(`/v1/transactions/${members[3].id}?edition_type=THIS_AND_NEXT`);
    expect(fromOwnDate.body).toEqual({ deleted: 1 });
    expect((await tenant.api.delete(`/v1/transactions/${first.id}?edition_type=ALL`)).body).toEqual({ deleted: 2 });
    expect(await live(first.id)).toEqual([]);
    const events = await stack.sql(
      "select count(*)::int as n from ledger.outbox_events where payload->'data'->>'change' = 'deleted'",
    );
    expect(events[0].n).toBeGreaterThanOrEqual(4);
  });

  it('when a recurrence is deleted from a date on, then the series is ended', async () => {
    const first = await create({ date: '2026-01-10', type: 'RECURRENT', frequency: 'MONTHLY' });
    const response = await tenant.api.delete(
      `/v1/transactions/${first.id}?edition_type=THIS_AND_NEXT&edition_date=2026-03-01`,
    );
    expect(response.status).toBe(200);
    expect(await live(first.id)).toEqual(['2026-01-10', '2026-02-10']);
    const [series] = await stack.sql('select ended from ledger.recurrence_series where series_id = $1', [first.id]);
    expect(series.ended).toBe(true);
  });

  it('when one leg of a transfer is deleted, then both legs go', async () => {
    const out = await tenant.api.post('/v1/transactions/create-transfer', {
      amount: 700,
      date: '2026-02-10',
      paid: true,
      sent_account_id: accountA,
      received_account_id: accountB,
    });
    const [incoming] = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where connected_transaction_id = $1 and id <> $1',
      [out.body.id],
    );
    const response = await tenant.api.delete(`/v1/transactions/${incoming.id}`);
    expect(response.body).toEqual({ deleted: 2 });
    expect(await live(out.body.id)).toEqual([]);
  });

  it('when the OpenAPI document is read, then it lists every transaction route', async () => {
    const doc = (await stack.client().get('/openapi.json')).body;
    expect(doc.paths['/v1/transactions']).toHaveProperty('post');
    expect(doc.paths['/v1/transactions']).toHaveProperty('get');
    expect(doc.paths['/v1/transactions/{id}']).toHaveProperty('delete');
    expect(doc.paths['/v1/accounts/{id}']).toHaveProperty('delete');
    for (const path of [
      '/v2/transactions/duplicate/update-many',
      '/v1/transactions/{id}/duplicate',
      '/v1/transactions/{id}/installments',
      '/v1/transactions/create-transfer',
      '/v2/transactions/{id}/settle',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('when the edition type is unknown, then 400', async () => {
    const t = await create({ date: '2026-02-03' });
    const response = await tenant.api.delete(`/v1/transactions/${t.id}?edition_type=SOME`);
    expect(response.status).toBe(400);
    expect(response.body.details[0].field).toBe('edition_type');
  });

  it('when a page is listed, then each item is byte for byte the transaction GET /:id shows, timestamps in UTC as stored', async () => {
    const user = await stack.tenant();
    const account = await newAccount(user.api, 0, 'Views');
    const ids: string[] = [];
    for (const [index, body] of [
      { paid: true },
      { paid: false, description: 'nota' },
      { is_expense: false },
    ].entries()) {
      const response = await user.api.post('/v1/transactions', {
        amount: 1234 + index,
        date: `2026-05-0${index + 1}`,
        is_expense: true,
        title: `Item ${index}`,
        account_id: account,
        ...body,
      });
      expect(response.status).toBe(201);
      ids.push(response.body.id);
    }
    // written with microseconds and offsets: the columns keep milliseconds (timestamptz(3) rounds), shown in UTC
    await stack.sql(
      `update ledger.transactions set paid_at = '2026-05-01 23:59:59.999999+00', reconciled_at = '2026-05-02 00:00:00.000500-03',
         created_at = '2026-05-01 10:11:12.345678+00', updated_at = '2026-05-03 01:02:03.4+00' where id = any($1::uuid[])`,
      [ids],
    );
    const page = await user.api.get('/v1/transactions?start_date=2026-05-01&end_date=2026-05-31');
    expect(page.status).toBe(200);
    expect(page.body.data.map((item: { id: string }) => item.id)).toEqual(ids);
    for (const item of page.body.data) {
      const shown = await user.api.get(`/v1/transactions/${item.id}`);
      expect(JSON.stringify(item)).toBe(JSON.stringify(shown.body));
    }
    expect(page.body.data[0]).toMatchObject({
      paid_at: '2026-05-02T00:00:00.000Z',
      reconciled_at: '2026-05-02T03:00:00.001Z',
      createdAt: '2026-05-01T10:11:12.346Z',
      updatedAt: '2026-05-03T01:02:03.400Z',
    });
  });
});
