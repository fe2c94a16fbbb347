import { todayUtc } from '@finance/shared/calendar';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { createTransaction, newAccount, newCard, TRANSACTION_FIELDS } from '../../../../test/support/transactions.ts';

describe('transactions: duplicate, installments, transfers, settle, balances and account deletion', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountA: string;
  let accountB: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountA = await newAccount(tenant.api, 10000, 'A');
    accountB = await newAccount(tenant.api, 0, 'B');
  });
  afterAll(() => stack?.stop());

  const create = (body: Record<string, unknown>, api = tenant.api, account = accountA) =>
    createTransaction(api, account, body);
  const balance = async (id: string, api = tenant.api) => (await api.get(`/v1/accounts/${id}`)).body.balance;
  const count = async () => Number((await stack.sql('select count(*) from ledger.transactions'))[0].count);

  it('when a transaction is duplicated, then a paid single copy without tags or link is created', async () => {
    const tag = await tenant.api.post('/v1/tags', { name: 'dup' });
    const first = await create({ type: 'PARCELLED', installments: 2, description: 'desc', tag_ids: [tag.body.id] });
    const response = await tenant.api.post(`/v1/transactions/${first.id}/duplicate`);
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(TRANSACTION_FIELDS);
    expect(response.body).toMatchObject({
      type: 'FIXED',
      paid: true,
      amount: 500,
      date: first.date,
      title: 'Item',
      description: 'desc',
      account_id: accountA,
      installments: 1,
      installment_number: null,
      connected_transaction_id: null,
    });
    expect(response.body.id).not.toBe(first.id);
    expect(response.body.paid_at).not.toBeNull();
    const tags = await stack.sql('select count(*)::int as n from ledger.transaction_tags where transaction_id = $1', [
      response.body.id,
    ]);
    expect(tags[0].n).toBe(0);
  });

  it('when a card purchase or a bill payment is duplicated, then the card copy is paid at its date and the account copy is in no bill', async () => {
    const user = await stack.tenant();
    const account = await newAccount(user.api);
    const card = await newCard(user.api, account);
    const bought = await user.api.post('/v1/transactions', {
      amount: 900,
      date: '2026-03-05',
      is_expense: true,
      title: 'Compra',
      credit_card_id: card,
    });
    const copy = await user.api.post(`/v1/transactions/${bought.body.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      paid: true,
      paid_at: '2026-03-05T00:00:00.000Z',
      credit_card_id: card,
      bill_id: bought.body.bill_id,
      billed_at: bought.body.billed_at,
    });
    const pay = await user.api.post(`/v2/bills/${bought.body.bill_id}/pay`, { account_id: account });
    expect(pay.body.bill).toMatchObject({ value: 1800, balance: 0 });
    const payCopy = await user.api.post(`/v1/transactions/${pay.body.payment.id}/duplicate`);
    expect(payCopy.status).toBe(201);
    expect(payCopy.body).toMatchObject({ account_id: account, bill_id: null, billed_at: null, is_bill_payment: false });
    const bill = await user.api.get(`/v2/bills/show-by-card/${card}?date=2026-03-01`);
    expect(bill.body.bill).toMatchObject({ value: 1800, paid: 1800, balance: 0, status: 'PAID' });
  });

  it("when duplicating another context's transaction, then 404 and nothing is written", async () => {
    const other = await stack.tenant();
    const theirs = await create({}, other.api, await newAccount(other.api));
    const before = await count();
    expect((await tenant.api.post(`/v1/transactions/${theirs.id}/duplicate`)).status).toBe(404);
    expect((await tenant.readOnly.post(`/v1/transactions/${theirs.id}/duplicate`)).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('when installments are appended, then they follow the last one and every count grows', async () => {
    const first = await create({ type: 'PARCELLED', installments: 3, date: '2026-01-31', amount: 1000 });
    const response = await tenant.api.post(`/v1/transactions/${first.id}/installments`, { quantity: 2 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ created: 2 });
    const rows = await stack.sql(
      `select to_char(date, 'YYYY-MM-DD') as date, installment_number, installments, amount::int
       from ledger.transactions where connected_transaction_id = $1 order by series_index`,
      [first.id],
    );
    expect(rows).toEqual([
      { date: '2026-01-31', installment_number: 1, installments: 5, amount: 1000 },
      { date: '2026-02-28', installment_number: 2, installments: 5, amount: 1000 },
      { date: '2026-03-31', installment_number: 3, installments: 5, amount: 1000 },
      { date: '2026-04-30', installment_number: 4, installments: 5, amount: 1000 },
      { date: '2026-05-31', installment_number: 5, installments: 5, amount: 1000 },
    ]);
  });

  it('when the last installment was deleted and one is appended, then it takes its place and the count stays whole', async () => {
    const first = await create({ type: 'PARCELLED', installments: 3, date: '2026-01-10', amount: 1000 });
    const [third] = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where connected_transaction_id = $1 and installment_number = 3',
      [first.id],
    );
    expect((await tenant.api.delete(`/v1/transactions/${third.id}`)).status).toBe(200);
    const response = await tenant.api.post(`/v1/transactions/${first.id}/installments`, { quantity: 1 });
    expect(response.body).toEqual({ created: 1 });
    const live = await stack.sql(
      `select to_char(date, 'YYYY-MM-DD') as date, installment_number, installments
       from ledger.transactions where connected_transaction_id = $1 and deleted_at is null order by series_index`,
      [first.id],
    );
    expect(live).toEqual([
      { date: '2026-01-10', installment_number: 1, installments: 3 },
      { date: '2026-02-10', installment_number: 2, installments: 3 },
      { date: '2026-03-10', installment_number: 3, installments: 3 },
    ]);
  });

  it("when appending to another context's purchase or with a read-only key, then 404 / 403 and nothing is written", async () => {
    const company = await stack.companyClient(tenant.userId);
    const theirs = await create({ type: 'PARCELLED', installments: 2 }, company.api, await newAccount(company.api));
    const mine = await create({ type: 'PARCELLED', installments: 2 });
    const before = await count();
    expect((await tenant.api.post(`/v1/transactions/${theirs.id}/installments`, { quantity: 1 })).status).toBe(404);
    expect((await tenant.readOnly.post(`/v1/transactions/${mine.id}/installments`, { quantity: 1 })).status).toBe(403);
    const transfer = await tenant.readOnly.post('/v1/transactions/create-transfer', {
      amount: 1,
      date: '2026-02-01',
      sent_account_id: accountA,
      received_account_id: accountB,
    });
    expect(transfer.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('when the transaction is not an installment purchase, then created is 0', async () => {
    const single = await create({});
    const response = await tenant.api.post(`/v1/transactions/${single.id}/installments`, { quantity: 3 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ created: 0 });
  });

  it.each([[{ quantity: 0 }], [{ quantity: 121 }], [{}], [{ quantity: '2' }]])(
    'when the installments body is %j, then 400',
    async (body) => {
      const single = await create({});
      const response = await tenant.api.post(`/v1/transactions/${single.id}/installments`, body);
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe('quantity');
    },
  );

  it('when a transfer is created, then two linked legs net to zero and move both balances', async () => {
    const beforeA = await balance(accountA);
    const beforeB = await balance(accountB);
    const response = await tenant.api.post('/v1/transactions/create-transfer', {
      amount: 2500,
      date: '2026-02-01',
      paid: true,
      sent_account_id: accountA,
      received_account_id: accountB,
      description: null,
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(TRANSACTION_FIELDS);
    expect(response.body).toMatchObject({
      type: 'TRANSFER',
      title: 'Transferência',
      is_expense: true,
      account_id: accountA,
      amount: 2500,
      paid: true,
      connected_transaction_id: response.body.id,
      description: null,
    });
    const legs = await stack.sql(
      `select account_id, is_expense, amount::int, paid from ledger.transactions
       where connected_transaction_id = $1 order by series_index`,
      [response.body.id],
    );
    expect(legs).toEqual([
      { account_id: accountA, is_expense: true, amount: 2500, paid: true },
      { account_id: accountB, is_expense: false, amount: 2500, paid: true },
    ]);
    expect(await balance(accountA)).toBe(beforeA - 2500);
    expect(await balance(accountB)).toBe(beforeB + 2500);
  });

  it('when a transfer uses the same account twice or a foreign account, then 400 / 404 and nothing is written', async () => {
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = await newAccount(company.api);
    const before = await count();
    const same = await tenant.api.post('/v1/transactions/create-transfer', {
      amount: 1,
      date: '2026-02-01',
      sent_account_id: accountA,
      received_account_id: accountA,
    });
    expect(same.status).toBe(400);
    expect(same.body.details[0].field).toBe('received_account_id');
    const foreign = await tenant.api.post('/v1/transactions/create-transfer', {
      amount: 1,
      date: '2026-02-01',
      sent_account_id: accountA,
      received_account_id: companyAccount,
    });
    expect(foreign.status).toBe(404);
    const invalid = await tenant.api.post('/v1/transactions/create-transfer', { amount: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['amount', 'date', 'received_account_id', 'sent_account_id'].sort(),
    );
    expect(await count()).toBe(before);
  });

  it('when a company settles an unpaid title, then it is paid on the account and a second settle is 409', async () => {
    const company = await stack.companyClient(tenant.userId);
    const account = await newAccount(company.api);
    const other = await newAccount(company.api, 0, 'Caixa');
    const title = await create({ is_expense: false, amount: 3000 }, company.api, account);
    const response = await company.api.post(`/v2/transactions/${title.id}/settle`, {
      account_id: other,
      paid_at: '2026-01-20',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ paid: true, paid_at: '2026-01-20T00:00:00.000Z', account_id: other });
    expect(await balance(other, company.api)).toBe(3000);
    const again = await company.api.post(`/v2/transactions/${title.id}/settle`, { account_id: other });
    expect(again.status).toBe(409);
    const fresh = await create({}, company.api, account);
    const today = await company.api.post(`/v2/transactions/${fresh.id}/settle`, { account_id: account });
    expect(today.body.paid_at.slice(0, 10)).toBe(todayUtc());
  });

  it('when a company settles a leg of an unpaid transfer, then 400 and both legs stay as they were', async () => {
    const company = await stack.companyClient(tenant.userId);
    const from = await newAccount(company.api, 0, 'Origem');
    const to = await newAccount(company.api, 0, 'Destino');
    const transfer = await company.api.post('/v1/transactions/create-transfer', {
      amount: 700,
      date: '2026-01-05',
      sent_account_id: from,
      received_account_id: to,
    });
    expect(transfer.body.paid).toBe(false);
    const response = await company.api.post(`/v2/transactions/${transfer.body.id}/settle`, { account_id: to });
    expect(response.status).toBe(400);
    const legs = await stack.sql<{ account_id: string; paid: boolean }>(
      'select account_id, paid from ledger.transactions where connected_transaction_id = $1 order by series_index',
      [transfer.body.id],
    );
    expect(legs).toEqual([
      { account_id: from, paid: false },
      { account_id: to, paid: false },
    ]);
  });

  it('when settle comes from a personal key, a foreign id or without account, then 403 / 404 / 400', async () => {
    const mine = await create({});
    expect((await tenant.api.post(`/v2/transactions/${mine.id}/settle`, { account_id: accountA })).status).toBe(403);
    const company = await stack.companyClient(tenant.userId);
    const account = await newAccount(company.api);
    expect((await company.api.post(`/v2/transactions/${mine.id}/settle`, { account_id: account })).status).toBe(404);
    const title = await create({}, company.api, account);
    expect((await company.api.post(`/v2/transactions/${title.id}/settle`, { account_id: accountA })).status).toBe(404);
    const missing = await company.api.post(`/v2/transactions/${title.id}/settle`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('account_id');
    const [row] = await stack.sql('select paid from ledger.transactions where id = $1', [title.id]);
    expect(row.paid).toBe(false);
  });

  it('when entries are paid, hidden or deleted, then the balance counts only live paid shown ones', async () => {
    const user = await stack.tenant();
    const account = await newAccount(user.api, 1000);
    const make = (body: Record<string, unknown>) => create(body, user.api, account);
    await make({ amount: 300, paid: true });
    await make({ amount: 200, is_expense: false, paid: true });
    await make({ amount: 5000, paid: false });
    await make({ amount: 7000, paid: true, show_on_balance: false });
    const gone = await make({ amount: 100, paid: true });
    expect(await balance(account, user.api)).toBe(1000 - 300 + 200 - 100);
    await user.api.delete(`/v1/transactions/${gone.id}`);
    expect(await balance(account, user.api)).toBe(900);
    const listed = await user.api.get('/v1/accounts');
    expect(listed.body.data[0].balance).toBe(900);
  });

  it('when an account is deleted, then its transactions go, the transfer leg in a surviving account stays as a plain entry and the default passes on', async () => {
    const user = await stack.tenant();
    const first = await newAccount(user.api, 100, 'Primeira');
    const second = await newAccount(user.api, 0, 'Segunda');
    const third = await newAccount(user.api, 0, 'Terceira');
    await create({ amount: 50, paid: true }, user.api, first);
    const transfer = await user.api.post('/v1/transactions/create-transfer', {
      amount: 10,
      date: '2026-02-01',
      paid: true,
      sent_account_id: first,
      received_account_id: third,
    });
    const other = await stack.tenant();
    expect((await other.api.delete(`/v1/accounts/${first}`)).status).toBe(404);
    expect((await user.readOnly.delete(`/v1/accounts/${first}`)).status).toBe(403);
    const response = await user.api.delete(`/v1/accounts/${first}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: first,
      name: 'Primeira',
      is_default: true,
      balance: 40,
      creditCards: [],
      movedCreditCards: [],
      user_id: user.userId,
      profile_id: null,
    });
    expect(response.body.createdAt).toBeDefined();
    expect(response.body.updatedAt).toBeDefined();
    expect((await user.api.get(`/v1/accounts/${first}`)).status).toBe(404);
    expect((await user.api.get(`/v1/accounts/${second}`)).body.is_default).toBe(true);
    expect((await user.api.get(`/v1/transactions/${transfer.body.id}`)).status).toBe(404);
    // the money did reach the third account: its leg stays there, unlinked
    expect(await balance(third, user.api)).toBe(10);
    expect((await user.api.get('/v1/transactions')).body.data).toEqual([
      expect.objectContaining({ account_id: third, amount: 10, is_expense: false, type: 'FIXED' }),
    ]);
  });
});
