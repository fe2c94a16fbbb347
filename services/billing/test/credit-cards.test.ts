import { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import { InternalClient } from '@finance/shared/http/internal-client';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

describe('billing: credit cards CRUD through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterAll(() => stack?.stop());

  const countCards = async () => Number((await stack.sql('select count(*) from billing.credit_cards'))[0].count);
  const card = (extra: Record<string, unknown> = {}) => ({
    name: 'Nubank',
    account_id: accountId,
    closing_date: 10,
    expiring_date: '17',
    limit: 500000,
    ...extra,
  });

  // before any card is created: it checks that the refused one left none
  describe('messages in Portuguese', () => {
    it('when a card logo is not an http(s) URL, then 400 with a Portuguese message (was joi English)', async () => {
      const response = await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 3,
        expiring_date: 10,
        logo: 'ftp://example.com/logo.png',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Dados inválidos',
        details: [{ field: 'logo', message: 'logo deve ser uma URL válida com esquema http|https' }],
      });
      expect(await stack.sql('select id from billing.credit_cards')).toEqual([]);
    });
  });

  it('when a card is created, then 201 with every field and days returned as strings', async () => {
    const response = await tenant.api.post('/v1/credit-cards', card({ logo: 'https://example.com/nu.png' }));
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      name: 'Nubank',
      logo: 'https://example.com/nu.png',
      account_id: accountId,
      closing_date: '10',
      expiring_date: '17',
      limit: 500000,
      available_limit: 500000,
      is_unlimited: false,
      needs_closing_date_review: false,
      profile_id: null,
      user_id: tenant.userId,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const got = await tenant.api.get(`/v1/credit-cards/${response.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(response.body);
    const list = await tenant.api.get('/v1/credit-cards');
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(response.body.id);
    expect(list.body.next_cursor).toBeNull();
  });

  it.each([
    ['0', 0],
    ['32', 32],
    ['text', 'dez'],
    ['a decimal', 10.5],
  ])('when closing_date is %s, then 400 with details and nothing written', async (_label, value) => {
    const before = await countCards();
    const response = await tenant.api.post('/v1/credit-cards', card({ closing_date: value }));
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ field: 'closing_date' })]);
    expect(await countCards()).toBe(before);
  });

  it('when required fields are missing or unknown ones sent, then 400 listing each', async () => {
    const response = await tenant.api.post('/v1/credit-cards', { color: 'red' });
    expect(response.status).toBe(400);
    const fields = response.body.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['account_id', 'closing_date', 'color', 'expiring_date', 'name']);
  });

  it('when the account belongs to another user, then 404 and nothing written', async () => {
    const other = await stack.tenant();
    const foreignAccount = (await other.api.post('/v1/accounts', { name: 'Outra', logo: '001' })).body.id;
    const before = await countCards();
    const response = await tenant.api.post('/v1/credit-cards', card({ account_id: foreignAccount }));
    expect(response.status).toBe(404);
    expect(await countCards()).toBe(before);
  });

  it('when a card is updated, then only the fields sent change', async () => {
    const created = (await tenant.api.post('/v1/credit-cards', card())).body;
    const response = await tenant.api.put(`/v1/credit-cards/${created.id}`, { limit: 800000, name: 'Roxinho' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Roxinho', limit: 800000, closing_date: '10', expiring_date: '17' });
    const days = await tenant.api.put(`/v1/credit-cards/${created.id}`, { closing_date: '5', expiring_date: 12 });
    expect(days.body).toMatchObject({ closing_date: '5', expiring_date: '12' });
  });

  it('when another user or context touches a card, then 404 and nothing changes', async () => {
    const created = (await tenant.api.post('/v1/credit-cards', card())).body;
    const other = await stack.tenant();
    const company = await stack.companyClient(tenant.userId);
    for (const api of [other.api, company.api]) {
      expect((await api.get(`/v1/credit-cards/${created.id}`)).status).toBe(404);
      expect((await api.put(`/v1/credit-cards/${created.id}`, { name: 'x' })).status).toBe(404);
      expect((await api.delete(`/v1/credit-cards/${created.id}`)).status).toBe(404);
    }
    expect((await tenant.api.get(`/v1/credit-cards/${created.id}`)).body.name).toBe('Nubank');
  });

  it('when a read-only key writes, then 403 and nothing written', async () => {
    const before = await countCards();
    expect((await tenant.readOnly.post('/v1/credit-cards', card())).status).toBe(403);
    expect(await countCards()).toBe(before);
  });

  it('when a card is deleted, then it answers with the card and vanishes', async () => {
    const created = (await tenant.api.post('/v1/credit-cards', card())).body;
    const response = await tenant.api.delete(`/v1/credit-cards/${created.id}`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(created.id);
    expect((await tenant.api.get(`/v1/credit-cards/${created.id}`)).status).toBe(404);
    const list = await tenant.api.get('/v1/credit-cards');
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(created.id);
  });

  it("when an account's cards are moved, then exactly that context's cards follow and are listed", async () => {
    const billing = stack.service('billing');
    const client = new BillingLedgerClient(new InternalClient(billing.url, billing.runtime.config.INTERNAL_SECRET));
    const from = (await tenant.api.post('/v1/accounts', { name: 'Origem', logo: '001' })).body.id;
    const to = (await tenant.api.post('/v1/accounts', { name: 'Destino', logo: '237' })).body.id;
    const created = (await tenant.api.post('/v1/credit-cards', card({ account_id: from }))).body;
    const ctx = { userId: tenant.userId, profileId: null, business: false, keyId: null };
    expect(await client.linkedCards(ctx, from)).toEqual([{ id: created.id, account_id: from }]);
    const other = await stack.tenant();
    const otherCtx = { userId: other.userId, profileId: null, business: false, keyId: null };
    expect(await client.moveCards(otherCtx, from, to)).toEqual([]);
    expect(await client.moveCards(ctx, from, to)).toEqual([{ id: created.id, account_id: to }]);
    expect((await tenant.api.get(`/v1/credit-cards/${created.id}`)).body.account_id).toBe(to);
    expect(await client.linkedCards(ctx, from)).toEqual([]);
  });

  it('when an account with cards is deleted, then its cards move to the default account and are listed', async () => {
    const owner = await stack.tenant();
    const main = (await owner.api.post('/v1/accounts', { name: 'Principal', logo: '341' })).body.id;
    const side = (await owner.api.post('/v1/accounts', { name: 'Secundária', logo: '001' })).body.id;
    const created = (await owner.api.post('/v1/credit-cards', card({ account_id: side }))).body;
    const response = await owner.api.delete(`/v1/accounts/${side}`);
    expect(response.status).toBe(200);
    expect(response.body.movedCreditCards).toEqual([{ id: created.id, account_id: main }]);
    expect(response.body.creditCards).toEqual([]);
    expect((await owner.api.get(`/v1/credit-cards/${created.id}`)).body.account_id).toBe(main);
  });

  it('when the last account has cards linked, then deleting it is 409 and nothing changes', async () => {
    const owner = await stack.tenant();
    const only = (await owner.api.post('/v1/accounts', { name: 'Única', logo: '341' })).body.id;
    const created = (await owner.api.post('/v1/credit-cards', card({ account_id: only }))).body;
    const response = await owner.api.delete(`/v1/accounts/${only}`);
    expect(response.status).toBe(409);
    expect((await owner.api.get(`/v1/accounts/${only}`)).status).toBe(200);
    expect((await owner.api.get(`/v1/credit-cards/${created.id}`)).body.account_id).toBe(only);
    await owner.api.delete(`/v1/credit-cards/${created.id}`);
    expect((await owner.api.delete(`/v1/accounts/${only}`)).status).toBe(200);
  });

  describe('money that left the bank stays gone', () => {
    const balanceOf = async (api: Tenant['api'], id: string) => (await api.get(`/v1/accounts/${id}`)).body.balance;

    it('when a card whose bill was paid is deleted, then the payment stays in the checking account as a plain expense', async () => {
      const person = await stack.tenant();
      const checking = (await person.api.post('/v1/accounts', { name: 'Corrente', logo: '341', balance: 100_000 })).body
        .id;
      const card = await person.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: checking,
        closing_date: 3,
        expiring_date: 10,
        limit: 500_000,
      });
      expect(card.status).toBe(201);
      const bought = await person.api.post('/v1/transactions', {
        credit_card_id: card.body.id,
        amount: 4_000,
        date: '2026-03-05',
        is_expense: true,
        title: 'Mercado',
      });
      expect(bought.status).toBe(201);
      const [{ bill_id }] = await stack.sql<{ bill_id: string }>(
        'select bill_id from ledger.transactions where id = $1',
        [bought.body.id],
      );
      const paid = await person.api.post(`/v2/bills/${bill_id}/pay`, { account_id: checking, amount: 4_000 });
      expect(paid.status).toBe(200);
      expect(await balanceOf(person.api, checking)).toBe(96_000);

      expect((await person.api.delete(`/v1/credit-cards/${card.body.id}`)).status).toBe(200);
      expect(await balanceOf(person.api, checking)).toBe(96_000);
      const payment = await person.api.get(`/v1/transactions/${paid.body.payment.id}`);
      expect(payment.status).toBe(200);
      expect(payment.body).toMatchObject({
        account_id: checking,
        amount: 4_000,
        is_expense: true,
        paid: true,
        is_bill_payment: false,
        bill_id: null,
      });
      const purchase = await stack.sql<{ deleted: boolean }>(
        'select deleted_at is not null as deleted from ledger.transactions where id = $1',
        [bought.body.id],
      );
      expect(purchase).toEqual([{ deleted: true }]);
    });
  });
});
