import { addMonthsClamped } from '@finance/shared/calendar';
// the context's today (default zone America/Sao_Paulo), as the services read it
import { todayIn } from '@finance/shared/clock';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { ISO_MS, newAccount, TRANSACTION_FIELDS } from '../../../../test/support/transactions.ts';

describe('transactions: creation of single entries, installments and recurrences', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = await newAccount(tenant.api, 10000);
  });
  afterAll(() => stack?.stop());

  const count = async () => Number((await stack.sql('select count(*) from ledger.transactions'))[0].count);
  const base = () => ({
    amount: 1000,
    date: '2026-03-10',
    is_expense: true,
    title: 'Conta de luz',
    account_id: accountId,
  });

  it('when a single expense is created, then 201 with every field of the record', async () => {
    const response = await tenant.api.post('/v1/transactions', {
      amount: 12990,
      date: '2026-01-05T22:30:00-03:00',
      is_expense: true,
      title: 'Mercado? sim',
      description: "D'Ávila",
      account_id: accountId,
      paid: true,
    });
    expect(response.status).toBe(201);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(TRANSACTION_FIELDS);
    expect(body).toMatchObject({
      amount: 12990,
      date: '2026-01-05T00:00:00.000Z',
      title: 'Mercado? sim',
      description: "D'Ávila",
      is_expense: true,
      paid: true,
      type: 'FIXED',
      installments: 1,
      installment_number: null,
      frequency: null,
      currency: 'BRL',
      account_id: accountId,
      credit_card_id: null,
      bill_id: null,
      billed_at: null,
      category_id: null,
      subcategory_id: null,
      competence_date: null,
      contact_id: null,
      cost_center_id: null,
      document_number: null,
      connected_transaction_id: null,
      is_bill_payment: false,
      is_full_amount: false,
      is_previous_balance: false,
      show_on_balance: true,
      excluded_dates: [],
      payment_dates: [],
      is_remote: true,
      logo_url: null,
      merchant_cnae: null,
      merchant_cnpj: null,
      merchant_name: null,
      operation_type: null,
      reconciled_at: null,
      reconciled_by_user_id: null,
      reconciled_with_transaction_id: null,
      profile_id: null,
      user_id: tenant.userId,
    });
    expect(body.paid_at).toMatch(ISO_MS);
    expect(body.createdAt).toMatch(ISO_MS);
    expect(body.updatedAt).toMatch(ISO_MS);
    const [row] = await stack.sql(
      "select amount::int, to_char(date, 'YYYY-MM-DD') as date, deleted_at from ledger.transactions where id = $1",
      [body.id],
    );
    expect(row).toEqual({ amount: 12990, date: '2026-01-05', deleted_at: null });
    expect((await tenant.api.get(`/v1/transactions/${body.id}`)).body).toEqual(body);
    const [event] = await stack.sql(
      "select payload from ledger.outbox_events where type = 'transaction.changed' and payload->'data'->'transactions'->0->>'id' = $1",
      [body.id],
    );
    expect((event as any).payload.data).toEqual({
      change: 'created',
      transactions: [
        {
          id: body.id,
          date: '2026-01-05',
          amount: 12990,
          is_expense: true,
          category_id: null,
          subcategory_id: null,
          type: 'FIXED',
        },
      ],
    });
  });

  it('when a purchase is split from its total, then members are exact, numbered, clamped and linked', async () => {
    const response = await tenant.api.post('/v1/transactions', {
      ...base(),
      amount: 10000,
      date: '2026-01-31',
      type: 'PARCELLED',
      installments: 3,
      is_full_amount: true,
      paid: true,
    });
    expect(response.status).toBe(201);
    const first = response.body;
    expect(first).toMatchObject({
      type: 'PARCELLED',
      amount: 3334,
      installments: 3,
      installment_number: 1,
      is_full_amount: true,
      connected_transaction_id: first.id,
      paid: true,
      frequency: null,
    });
    const members = await stack.sql(
      `select amount::int, to_char(date, 'YYYY-MM-DD') as date, installment_number, installments, paid,
              connected_transaction_id = $1 as linked
       from ledger.transactions where connected_transaction_id = $1 order by series_index`,
      [first.id],
    );
    expect(members).toEqual([
      { amount: 3334, date: '2026-01-31', installment_number: 1, installments: 3, paid: true, linked: true },
      { amount: 3333, date: '2026-02-28', installment_number: 2, installments: 3, paid: false, linked: true },
      { amount: 3333, date: '2026-03-31', installment_number: 3, installments: 3, paid: false, linked: true },
    ]);
  });

  it('when installments are not the total, then every member carries the amount', async () => {
    const response = await tenant.api.post('/v1/transactions', { ...base(), type: 'PARCELLED', installments: 4 });
    expect(response.status).toBe(201);
    const rows = await stack.sql('select amount::int from ledger.transactions where connected_transaction_id = $1', [
      response.body.id,
    ]);
    expect(rows.map((row) => row.amount)).toEqual([1000, 1000, 1000, 1000]);
  });

  it.each([
    ['DAILY', 0],
    ['WEEKLY', 0],
    ['BIWEEKLY', 0],
    ['MONTHLY', 13],
    ['BIMONTHLY', 7],
    ['QUARTERLY', 5],
    ['SEMIANNUAL', 3],
    ['YEARLY', 2],
  ])(
    'when a %s recurrence starts today, then occurrences reach 12 months ahead and only the first is paid',
    async (frequency, expected) => {
      const today = todayIn();
      const response = await tenant.api.post('/v1/transactions', {
        ...base(),
        date: today,
        type: 'RECURRENT',
        frequency,
        paid: true,
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ type: 'RECURRENT', frequency, paid: true, installments: 1 });
      const rows = await stack.sql<{ date: string; paid: boolean }>(
        `select to_char(date, 'YYYY-MM-DD') as date, paid from ledger.transactions
       where connected_transaction_id = $1 order by series_index`,
        [response.body.id],
      );
      const horizon = addMonthsClamped(today, 12);
      if (expected) expect(rows).toHaveLength(expected);
      expect(rows[0]).toEqual({ date: today, paid: true });
      expect(rows.slice(1).every((row) => !row.paid)).toBe(true);
      expect(rows[rows.length - 1].date <= horizon).toBe(true);
      expect(new Set(rows.map((row) => row.date)).size).toBe(rows.length);
    },
  );

  it('when a recurrence starts beyond the horizon, then only its first occurrence exists', async () => {
    const response = await tenant.api.post('/v1/transactions', {
      ...base(),
      date: addMonthsClamped(todayIn(), 30),
      type: 'RECURRENT',
    });
    expect(response.status).toBe(201);
    expect(response.body.frequency).toBe('MONTHLY');
    const rows = await stack.sql('select id from ledger.transactions where connected_transaction_id = $1', [
      response.body.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: 10.5 }, 'amount'],
    [{ amount: '100' }, 'amount'],
    [{ date: '2026-02-30' }, 'date'],
    [{ date: 'ontem' }, 'date'],
    [{ is_expense: 'yes' }, 'is_expense'],
    [{ title: '' }, 'title'],
    [{ type: 'LOAN' }, 'type'],
    [{ type: 'TRANSFER' }, 'type'],
    [{ type: 'PARCELLED', installments: 1 }, 'installments'],
    [{ type: 'PARCELLED', installments: 121 }, 'installments'],
    [{ type: 'PARCELLED' }, 'installments'],
    [{ type: 'PARCELLED', installments: 3, is_full_amount: true, amount: 2 }, 'amount'],
    [{ frequency: 'HOURLY' }, 'frequency'],
    [{ account_id: undefined }, 'account_id'],
    [{ currency: 'REAL' }, 'currency'],
    [{ tag_ids: ['x'] }, 'tag_ids.0'],
    [{ color: 'red' }, 'color'],
  ])('when the body has %j, then 400 naming %s and nothing is written', async (patch, field) => {
    const before = await count();
    const response = await tenant.api.post('/v1/transactions', { ...base(), ...patch });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await count()).toBe(before);
  });

  it('when an unknown card is sent, then 404 and nothing is written', async () => {
    const before = await count();
    const response = await tenant.api.post('/v1/transactions', {
      ...base(),
      account_id: undefined,
      credit_card_id: '0190a1b2-0000-7000-8000-000000000001',
    });
    expect(response.status).toBe(404);
    expect(await count()).toBe(before);
  });

  it('when both an account and a card are sent, then 400 saying to send only one', async () => {
    const response = await tenant.api.post('/v1/transactions', {
      ...base(),
      credit_card_id: '0190a1b2-0000-7000-8000-000000000001',
    });
    expect(response.status).toBe(400);
    expect(response.body.details[0].message).toContain('apenas um entre account_id e credit_card_id');
  });

  it('when required fields are missing, then 400 lists each of them', async () => {
    const response = await tenant.api.post('/v1/transactions', {});
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['amount', 'date', 'is_expense', 'title'].sort(),
    );
  });

  it('when a personal key sends business fields, then 403 and nothing is written', async () => {
    const before = await count();
    for (const patch of [
      { competence_date: '2026-03-01' },
      { document_number: 'NF 123' },
      { contact_id: '0190a1b2-0000-7000-8000-000000000001' },
      { cost_center_id: '0190a1b2-0000-7000-8000-000000000001' },
    ]) {
      const response = await tenant.api.post('/v1/transactions', { ...base(), ...patch });
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('Forbidden');
    }
    expect(await count()).toBe(before);
  });

  it('when an inactive company sends business fields, then 403', async () => {
    const company = await stack.companyClient(tenant.userId, 'inactive');
    const account = await newAccount(company.api);
    const response = await company.api.post('/v1/transactions', {
      ...base(),
      account_id: account,
      document_number: 'NF 1',
    });
    expect(response.status).toBe(403);
  });

  it('when an active company sends business fields, then they are stored and returned', async () => {
    const company = await stack.companyClient(tenant.userId);
    const account = await newAccount(company.api);
    const contact = await company.api.post('/v2/business/contacts', { name: 'Distribuidora Sol' });
    expect(contact.status).toBe(201);
    const response = await company.api.post('/v1/transactions', {
      ...base(),
      account_id: account,
      competence_date: '2026-02-01',
      document_number: 'NF 123',
      contact_id: contact.body.id,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      competence_date: '2026-02-01T00:00:00.000Z',
      document_number: 'NF 123',
      contact_id: contact.body.id,
      profile_id: company.profileId,
      user_id: tenant.userId,
    });
  });

  it("when the account is another user's or the same user's company's, then 404 and nothing is written", async () => {
    const other = await stack.tenant();
    const othersAccount = await newAccount(other.api);
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = await newAccount(company.api);
    const before = await count();
    for (const id of [othersAccount, companyAccount, '0190a1b2-0000-7000-8000-00000000dead']) {
      const response = await tenant.api.post('/v1/transactions', { ...base(), account_id: id });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('Not Found');
    }
    expect(await count()).toBe(before);
  });

  it("when a category or tag is another user's, then 404 and nothing is written", async () => {
    const other = await stack.tenant();
    const category = await other.api.post('/v1/categories', { name: 'Alheia', is_expense: true });
    const tag = await other.api.post('/v1/tags', { name: 'alheia' });
    expect([category.status, tag.status]).toEqual([201, 201]);
    const before = await count();
    expect((await tenant.api.post('/v1/transactions', { ...base(), category_id: category.body.id })).status).toBe(404);
    expect((await tenant.api.post('/v1/transactions', { ...base(), tag_ids: [tag.body.id] })).status).toBe(404);
    expect(await count()).toBe(before);
  });

  it('when own category, subcategory and tags are sent, then they are stored on every member', async () => {
    const category = await tenant.api.post('/v1/categories', { name: 'Casa', is_expense: true });
    const sub = await tenant.api.post('/v1/subcategories', { name: 'Luz', category_id: category.body.id });
    const tag = await tenant.api.post('/v1/tags', { name: 'fixas' });
    const response = await tenant.api.post('/v1/transactions', {
      ...base(),
      type: 'PARCELLED',
      installments: 2,
      category_id: category.body.id,
      subcategory_id: sub.body.id,
      tag_ids: [tag.body.id],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ category_id: category.body.id, subcategory_id: sub.body.id });
    const tags = await stack.sql(
      `select count(*)::int as n from ledger.transaction_tags tt join ledger.transactions t on t.id = tt.transaction_id
       where t.connected_transaction_id = $1 and tt.tag_id = $2`,
      [response.body.id, tag.body.id],
    );
    expect(tags[0].n).toBe(2);
  });

  it('when a read-only key creates, then 403 and nothing is written', async () => {
    const before = await count();
    const response = await tenant.readOnly.post('/v1/transactions', base());
    expect(response.status).toBe(403);
    expect(await count()).toBe(before);
  });
});
