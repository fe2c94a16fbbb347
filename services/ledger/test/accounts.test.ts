import { type Tenant, TestStack } from '../../../test/support/stack.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('accounts through the gateway', () => {
  let stack: TestStack;
  let owner: Tenant;
  let stranger: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    owner = await stack.tenant();
    stranger = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  it('when an account is created with a bank code, then every field of the record is returned with its type', async () => {
    const tenant = await stack.tenant();
    const response = await tenant.api.post('/v1/accounts', {
      name: 'Conta Itaú',
      logo: '341',
      balance: 150_000,
      include_total_balance: false,
      type: 'BUSINESS_BANK',
    });
    expect(response.status).toBe(201);
    const account = response.body;
    expect(Object.keys(account).sort()).toEqual(
      [
        'balance',
        'createdAt',
        'id',
        'include_total_balance',
        'is_default',
        'logo',
        'name',
        'profile_id',
        'subtype',
        'type',
        'updatedAt',
        'user_id',
      ].sort(),
    );
    expect(account).toMatchObject({
      name: 'Conta Itaú',
      balance: 150_000,
      include_total_balance: false,
      is_default: true,
      type: 'BUSINESS_BANK',
      subtype: null,
      profile_id: null,
      user_id: tenant.userId,
    });
    expect(account.id).toMatch(UUID);
    expect(account.logo).toMatch(/^https:\/\/.+\/341\.png$/);
    expect(account.createdAt).toMatch(ISO_MS);
    expect(account.updatedAt).toMatch(ISO_MS);
  });

  it('when defaults apply, then type is PERSONAL_BANK, include_total_balance true, balance 0, and only the first account is default', async () => {
    const tenant = await stack.tenant();
    const first = await tenant.api.post('/v1/accounts', { name: 'Primeira', logo: 'https://example.com/logo.png' });
    const second = await tenant.api.post('/v1/accounts', { name: 'Segunda', logo: '260' });
    expect(first.body).toMatchObject({
      type: 'PERSONAL_BANK',
      include_total_balance: true,
      balance: 0,
      is_default: true,
    });
    expect(first.body.logo).toBe('https://example.com/logo.png');
    expect(second.body.is_default).toBe(false);
  });

  it('when accounts are listed and read, then the list pages with a cursor and GET returns the same record', async () => {
    const tenant = await stack.tenant();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C'])
      ids.push((await tenant.api.post('/v1/accounts', { name, logo: '001' })).body.id);
    const page1 = await tenant.api.get('/v1/accounts?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 2));
    expect(typeof page1.body.next_cursor).toBe('string');
    const page2 = await tenant.api.get(`/v1/accounts?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: ids[2] })], next_cursor: null });
    const one = await tenant.readOnly.get(`/v1/accounts/${ids[1]}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(page1.body.data[1]);
    expect((await tenant.api.get('/v1/accounts?cursor=garbage')).status).toBe(400);
  });

  it('when an account is updated, then name and logo are required and other fields change only when sent', async () => {
    const created = (await owner.api.post('/v1/accounts', { name: 'Antes', logo: '237', balance: 500, type: 'OTHER' }))
      .body;
    const updated = await owner.api.put(`/v1/accounts/${created.id}`, { name: 'Depois', logo: '033' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, name: 'Depois', balance: 500, type: 'OTHER' });
    expect(updated.body.logo).toMatch(/\/033\.png$/);
    expect(new Date(updated.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());
    const missing = await owner.api.put(`/v1/accounts/${created.id}`, { balance: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['logo', 'name']);
  });

  it.each([
    ['missing name and logo', {}, ['logo', 'name']],
    ['a name of the wrong type', { name: 42, logo: '341' }, ['name']],
    ['an unknown bank code', { name: 'X', logo: '999' }, ['logo']],
    ['a logo that is neither URL nor code', { name: 'X', logo: 'itau' }, ['logo']],
    ['a fractional balance', { name: 'X', logo: '341', balance: 10.5 }, ['balance']],
    ['a balance given as text', { name: 'X', logo: '341', balance: '100' }, ['balance']],
    ['an out-of-range balance', { name: 'X', logo: '341', balance: 1e16 }, ['balance']],
    ['an unknown type', { name: 'X', logo: '341', type: 'CRYPTO' }, ['type']],
    ['an unknown field', { name: 'X', logo: '341', color: 'red' }, ['color']],
    ['a name holding a NUL character (Postgres text cannot store it)', { name: 'A\u0000B', logo: '341' }, ['name']],
  ])('when the body has %s, then 400 with details and nothing is written', async (_label, body, fields) => {
    const before = await stack.sql('select count(*)::int as n from ledger.accounts');
    const response = await owner.api.post('/v1/accounts', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body.details.map((d: { field: string }) => d.field).sort()).toEqual(fields);
    expect(await stack.sql('select count(*)::int as n from ledger.accounts')).toEqual(before);
  });

  it('when validation fails in body, path or query, then each detail message is Portuguese (docs/decisions.md §3)', async () => {
    const body = await owner.api.post('/v1/accounts', { name: 42, balance: 1.5, type: 'CRYPTO', color: 'red' });
    expect(body.body.details).toEqual([
      { field: 'name', message: 'name deve ser um texto' },
      { field: 'logo', message: 'logo é obrigatório' },
      { field: 'balance', message: 'balance deve ser um número inteiro' },
      { field: 'type', message: 'type deve ser um de [PERSONAL_BANK, BUSINESS_BANK, INVESTMENT, OTHER]' },
      { field: 'color', message: 'color não é permitido' },
    ]);
    expect((await owner.api.get('/v1/accounts/not-a-uuid')).body.details).toEqual([
      { field: 'id', message: 'id deve ser um UUID válido' },
    ]);
    expect((await owner.api.get('/v1/accounts?limit=501')).body.details).toEqual([
      { field: 'limit', message: 'limit deve ser menor ou igual a 500' },
    ]);
  });

  it('when user_id, profile_id or id are sent, then they are ignored', async () => {
    const response = await owner.api.post('/v1/accounts', {
      name: 'Tentativa',
      logo: '341',
      user_id: stranger.userId,
      profile_id: '00000000-0000-4000-8000-000000000000',
      id: '00000000-0000-4000-8000-000000000001',
    });
    expect(response.status).toBe(201);
    expect(response.body.user_id).toBe(owner.userId);
    expect(response.body.profile_id).toBeNull();
    expect(response.body.id).not.toBe('00000000-0000-4000-8000-000000000001');
  });

  it('when another user or the same user company context asks for an account, then 404 and nothing changes', async () => {
    const account = (await owner.api.post('/v1/accounts', { name: 'Privada', logo: '341' })).body;
    const company = await stack.companyClient(owner.userId);
    for (const client of [stranger.api, company.api]) {
      const get = await client.get(`/v1/accounts/${account.id}`);
      expect(get.status).toBe(404);
      expect(get.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect((await client.put(`/v1/accounts/${account.id}`, { name: 'Roubada', logo: '341' })).status).toBe(404);
      const list = await client.get('/v1/accounts');
      expect(list.body.data.map((a: { id: string }) => a.id)).not.toContain(account.id);
    }
    expect((await owner.api.get(`/v1/accounts/${account.id}`)).body.name).toBe('Privada');
    expect((await owner.api.get('/v1/accounts/not-a-uuid')).status).toBe(400);
  });

  it('when a company key creates accounts, then they carry the profile and the company has its own default', async () => {
    const company = await stack.companyClient(owner.userId);
    const response = await company.api.post('/v1/accounts', { name: 'PJ', logo: '077', type: 'BUSINESS_BANK' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ profile_id: company.profileId, user_id: owner.userId, is_default: true });
  });

  it('when banks are listed, then codes resolve to the logos accounts use', async () => {
    const response = await owner.readOnly.get('/v1/banks');
    expect(response.status).toBe(200);
    const itau = response.body.find((bank: { code: string }) => bank.code === '341');
    expect(itau).toEqual({ code: '341', name: 'Itaú Unibanco', logo: expect.stringMatching(/\/341\.png$/) });
    for (const code of ['001', '237', '260'])
      expect(response.body.map((b: { code: string }) => b.code)).toContain(code);
  });

  describe('money that left the bank stays gone', () => {
    const balanceOf = async (api: Tenant['api'], id: string) => (await api.get(`/v1/accounts/${id}`)).body.balance;

    it('when an account is deleted, then the other leg of its transfer stays in the surviving account as a plain entry', async () => {
      const person = await stack.tenant();
      const savings = (await person.api.post('/v1/accounts', { name: 'Poupança', logo: '341', balance: 10_000 })).body
        .id;
      const checking = (await person.api.post('/v1/accounts', { name: 'Corrente', logo: '341', balance: 50_000 })).body
        .id;
      const transfer = await person.api.post('/v1/transactions/create-transfer', {
        amount: 7_000,
        date: '2026-03-10',
        paid: true,
        sent_account_id: savings,
        received_account_id: checking,
        title: 'Resgate',
      });
      expect(transfer.status).toBe(201);
      expect(await balanceOf(person.api, checking)).toBe(57_000);

      expect((await person.api.delete(`/v1/accounts/${savings}`)).status).toBe(200);
      expect(await balanceOf(person.api, checking)).toBe(57_000);
      const legs = await stack.sql<{ account_id: string; deleted: boolean; type: string; linked: boolean }>(
        `select account_id, deleted_at is not null as deleted, type, connected_transaction_id is not null as linked
         from ledger.transactions where user_id = $1 order by account_id = $2`,
        [person.userId, checking],
      );
      expect(legs).toEqual([
        { account_id: savings, deleted: true, type: 'TRANSFER', linked: true },
        { account_id: checking, deleted: false, type: 'FIXED', linked: false },
      ]);
      const listed = await person.api.get(`/v1/transactions?account_id=${checking}`);
      expect(listed.body.data).toEqual([
        expect.objectContaining({ amount: 7_000, is_expense: false, paid: true, title: 'Resgate', type: 'FIXED' }),
      ]);
    });
  });
});
