import { todayIn } from '@finance/shared/clock';
import { importCompleted } from '../support/imports.ts';
import { merchantTransaction } from '../support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../support/stack.ts';

// Issue 11: behaviour a Brazilian user would call wrong, each case through the gateway.

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';

describe('deviations a Brazilian user would call wrong', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341', balance: 100000 })).body.id;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe('merchant normalization', () => {
    const ruleFrom = async (merchantName: string) => {
      const source = await merchantTransaction(stack, tenant.api, { accountId: account, merchantName });
      return tenant.api.post('/v1/categorization-rules', { source_transaction_id: source, category_id: ALIMENTACAO });
    };

    it('when a name comes with combining accents (NFD), then its rule is the one of the composed spelling "SÃO JOÃO"', async () => {
      const decomposed = await ruleFrom('Sa\u0303o Joa\u0303o');
      expect(decomposed.status).toBe(201);
      expect(decomposed.body.rule.available_criteria[0].normalized).toBe('sao joao');
      const composed = await ruleFrom('SÃO JOÃO');
      expect(composed.status).toBe(200);
      expect(composed.body.rule.id).toBe(decomposed.body.rule.id);
      const rows = await stack.sql<{ n: string }>(
        `select distinct merchant_name_normalized as n from ledger.transactions where merchant_name in ($1, $2)`,
        ['Sa\u0303o Joa\u0303o', 'SÃO JOÃO'],
      );
      expect(rows).toEqual([{ n: 'sao joao' }]);
    });

    it('when a name holds a non-breaking space, then it updates the rule of the plain spelling instead of making another', async () => {
      const plain = await ruleFrom('POSTO IPIRANGA CENTRO');
      expect(plain.status).toBe(201);
      const nbsp = await ruleFrom('POSTO\u00a0IPIRANGA\u2009 CENTRO');
      expect(nbsp.status).toBe(200);
      expect(nbsp.body.rule.id).toBe(plain.body.rule.id);
    });
  });

  describe('messages in Portuguese', () => {
    it('when a card logo is not an http(s) URL, then 400 with a Portuguese message (was joi English)', async () => {
      const response = await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: account,
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

  describe('categories without direction', () => {
    it('when a category is posted with the spec record (no is_expense), then 201 with is_expense null; the DRE groups its entries by each entry’s direction', async () => {
      const company = await stack.companyClient(tenant.userId);
      const created = await company.api.post('/v1/categories', {
        name: 'Serviços gerais',
        is_essential: true,
        icon_name: 'wrench',
        icon_background_color: '#112233',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Serviços gerais',
        is_expense: null,
        is_essential: true,
        icon_name: 'wrench',
        icon_background_color: '#112233',
      });
      const category = created.body.id;
      const companyAccount = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      for (const [amount, isExpense] of [
        [7_000, false],
        [2_500, true],
      ] as const) {
        const tx = await company.api.post('/v1/transactions', {
          account_id: companyAccount,
          amount,
          date: '2026-03-10',
          is_expense: isExpense,
          paid: true,
          title: 'Serviço',
          category_id: category,
        });
        expect(tx.status).toBe(201);
      }
      const mapping = await company.api.get('/v2/business/dre-mapping');
      expect(mapping.body.find((entry: { category_id: string }) => entry.category_id === category)).toMatchObject({
        dre_group: null,
        source: 'default',
      });
      const dre = await company.api.get('/v2/business/dre?start_date=2026-03-01&end_date=2026-03-31');
      expect(dre.status).toBe(200);
      const group = (name: string) => dre.body.groups.find((g: { dre_group: string }) => g.dre_group === name);
      expect(group('receita')).toMatchObject({ income: 7_000, expenses: 0 });
      expect(group('despesas_operacionais')).toMatchObject({ income: 0, expenses: 2_500 });

      const expenseCategories = await company.api.get('/v1/categories?is_expense=true&limit=500');
      expect(expenseCategories.body.data.map((c: { id: string }) => c.id)).toContain(category);
      const incomeCategories = await company.api.get('/v1/categories?is_expense=false&limit=500');
      expect(incomeCategories.body.data.map((c: { id: string }) => c.id)).toContain(category);
    });

    it('when is_expense is not a boolean, then 400 and nothing is written', async () => {
      const response = await tenant.api.post('/v1/categories', { name: 'X', is_expense: 'sim' });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([
        { field: 'is_expense', message: 'is_expense deve ser verdadeiro ou falso' },
      ]);
      expect(await stack.sql(`select id from ledger.categories where name = 'X'`)).toEqual([]);
    });
  });

  describe('ISO 8601 date inputs', () => {
    it('when a goal value date, a limit start_date and a goal deadline come as ISO 8601, then they are taken with the day as written', async () => {
      const goal = await tenant.api.post('/v2/goals', {
        title: 'Viagem',
        amount: 500_000,
        deadline: '2026-12-31T23:30:00-03:00',
      });
      expect(goal.status).toBe(201);
      expect(goal.body.deadline).toMatch(/^2026-12-31/);
      const value = await tenant.api.post(`/v2/goals/${goal.body.id}/values`, {
        date: '2026-03-10T23:30:00-03:00',
        value: 1_000,
      });
      expect(value.status).toBe(201);
      expect(JSON.stringify(value.body)).toContain('2026-03-10');
      const limit = await tenant.api.post('/v1/spending-limits', {
        amount: 50_000,
        category_id: ALIMENTACAO,
        start_date: '2026-03-01T00:00:00.000Z',
      });
      expect(limit.status).toBe(201);
      expect(limit.body.start_date).toMatch(/^2026-03-01/);
      const bad = await tenant.api.post(`/v2/goals/${goal.body.id}/values`, { date: '2026-02-30T10:00:00Z', value: 1 });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([{ field: 'date', message: 'date não é uma data válida' }]);
    });

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

    it('when entries are in USD and BRL, then the balance, summary, subcategory report and limit window count the BRL ones only', async () => {
      const person = await stack.tenant();
      // the context's today (São Paulo): from 21:00 there the UTC date is tomorrow's, outside the limit's window
      const today = todayIn();
      const wallet = (await person.api.post('/v1/accounts', { name: 'Conta', logo: '341', balance: 50_000 })).body.id;
      const limit = await person.api.post('/v1/spending-limits', { amount: 100_000, category_id: ALIMENTACAO });
      expect(limit.status).toBe(201);
      for (const [amount, currency] of [
        [10_000, 'USD'],
        [2_000, 'BRL'],
        [3_000, 'EUR'],
      ] as const) {
        const tx = await person.api.post('/v1/transactions', {
          account_id: wallet,
          amount,
          currency,
          date: today,
          is_expense: true,
          paid: true,
          title: `Compra ${currency}`,
          category_id: ALIMENTACAO,
        });
        expect(tx.status).toBe(201);
      }
      const listed = await person.api.get(`/v1/transactions?account_id=${wallet}`);
      expect(listed.body.data.map((t: { currency: string }) => t.currency).sort()).toEqual(['BRL', 'EUR', 'USD']);
      expect((await person.api.get(`/v1/accounts/${wallet}`)).body.balance).toBe(48_000);
      const period = `start_date=${today}&end_date=${today}`;
      const summary = await person.api.get(`/v1/reports/summary?${period}`);
      expect(summary.body).toMatchObject({ total_balance: 48_000, expenses: 2_000, income: 0 });
      const report = await person.api.get(`/v1/reports/subcategory-details?${period}`);
      expect(report.body.expenses_subcategories.map((item: { value: number }) => item.value)).toEqual([2_000]);
      const window = (await person.api.get(`/v1/spending-limits/${limit.body.id}`)).body.current_window;
      expect(window.spent).toBe(2_000);
    });
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

  describe('a re-import keeps what the user edited', () => {
    const bankFeed = (title: string, description: string, amount: number) => ({
      connection: { id: 'conn-edits', institution: 'Banco Exemplo' },
      accounts: [
        { external_id: 'acc-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1 },
      ],
      transactions: [
        {
          external_id: 'tx-edited',
          account_external_id: 'acc-1',
          amount,
          date: '2026-03-05',
          is_expense: true,
          title,
          description,
        },
        {
          external_id: 'tx-untouched',
          account_external_id: 'acc-1',
          amount: 500,
          date: '2026-03-06',
          is_expense: true,
          title,
          description,
        },
      ],
    });
    const byExternalId = async (userId: string) =>
      Object.fromEntries(
        (
          await stack.sql<{ external_id: string; id: string; title: string; description: string; amount: string }>(
            `select external_id, id, title, description, amount::text as amount, category_id,
               (select array_agg(tag_id) from ledger.transaction_tags g where g.transaction_id = t.id) as tags
             from ledger.transactions t where user_id = $1 and external_id is not null`,
            [userId],
          )
        ).map((row) => [row.external_id, row]),
      );

    it('when the user edited title, description, category and tags, then a re-import updates only the bank fields the user left alone', async () => {
      const person = await stack.tenant();
      await importCompleted(person.api, bankFeed('PAG*JOSE', 'COMPRA CARTAO', 4_000));
      const before = await byExternalId(person.userId);
      const tag = (await person.api.post('/v1/tags', { name: 'Casa' })).body.id;
      const edit = await person.api.put(
        `/v2/transactions/duplicate/update-many?transactions_ids=${before['tx-edited'].id}`,
        {
          title: 'Feira do José',
          description: 'Verduras',
          category_id: ALIMENTACAO,
          tag_ids: [tag],
        },
      );
      expect(edit.status).toBe(200);

      await importCompleted(person.api, bankFeed('PAG*JOSE LTDA', 'COMPRA NO CARTAO', 4_200));
      const after = await byExternalId(person.userId);
      expect(after['tx-edited']).toMatchObject({
        title: 'Feira do José',
        description: 'Verduras',
        amount: '4200',
        category_id: ALIMENTACAO,
        tags: [tag],
      });
      // the bank's data still updates a transaction the user never edited
      expect(after['tx-untouched']).toMatchObject({ title: 'PAG*JOSE LTDA', description: 'COMPRA NO CARTAO' });
    });
  });
});
