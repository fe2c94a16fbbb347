import { addDays } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

const FOOD = 'c0000000-0000-4000-8000-000000000001';
const GROCERIES = '5c000000-0000-4000-8000-000100000001';
const RESTAURANTS = '5c000000-0000-4000-8000-000100000002';
const HOUSING = 'c0000000-0000-4000-8000-000000000002';
const PERIOD = 'start_date=2026-03-01&end_date=2026-03-31';

interface Row {
  amount: number;
  is_expense: boolean;
  account_id?: string | null;
  credit_card_id?: string | null;
  date?: string;
  paid?: boolean;
  type?: string;
  category_id?: string | null;
  subcategory_id?: string | null;
  is_bill_payment?: boolean;
  billed_at?: string | null;
  deleted?: boolean;
  profile_id?: string | null;
  competence_date?: string | null;
}

describe('insights: subcategory, summary and DRE reports through the gateway', () => {
  let stack: TestStack;
  const queries: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.start({ onQuery: (service, sql) => queries.push(`${service}:${sql}`) });
  });
  afterAll(() => stack?.stop());

  // rows with flags the public API sets only through other flows (bill payments, billed card purchases)
  const insert = (userId: string, rows: Row[]) =>
    Promise.all(
      rows.map((row) =>
        stack.sql(
          `insert into ledger.transactions (id, user_id, profile_id, amount, date, title, is_expense, paid, type,
             account_id, credit_card_id, category_id, subcategory_id, is_bill_payment, billed_at, competence_date,
             deleted_at, created_at, updated_at)
           values (gen_random_uuid(), $1, $2, $3, $4, 'Lançamento', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
             case when $15 then now() end, now(), now())`,
          [
            userId,
            row.profile_id ?? null,
            row.amount,
            row.date ?? '2026-03-10',
            row.is_expense,
            row.paid ?? false,
            row.type ?? 'FIXED',
            row.credit_card_id ? null : (row.account_id ?? null),
            row.credit_card_id ?? null,
            row.category_id ?? null,
            row.subcategory_id ?? null,
            row.is_bill_payment ?? false,
            row.billed_at ?? null,
            row.competence_date ?? null,
            row.deleted ?? false,
          ],
        ),
      ),
    );

  const account = async (tenant: Tenant, body: Record<string, unknown>) => {
    const response = await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341', ...body });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  describe('subcategory details', () => {
    it('when transactions are categorized, then they group by subcategory or category, sort by value and sum to 100.00', async () => {
      const tenant = await stack.tenant();
      const acc = await account(tenant, {});
      const card = '0190a000-0000-7000-8000-00000000c4d0';
      await insert(tenant.userId, [
        { amount: 1000, is_expense: true, account_id: acc, category_id: FOOD, subcategory_id: GROCERIES },
        { amount: 500, is_expense: true, credit_card_id: card, category_id: FOOD, subcategory_id: GROCERIES },
        { amount: 1, is_expense: true, account_id: acc, category_id: FOOD, subcategory_id: RESTAURANTS },
        {
          amount: 1,
          is_expense: true,
          account_id: acc,
          category_id: FOOD,
          subcategory_id: RESTAURANTS,
          date: '2026-03-31',
        },
        { amount: 1, is_expense: true, account_id: acc, category_id: HOUSING },
        { amount: 9999, is_expense: true, account_id: acc },
        { amount: 9999, is_expense: true, account_id: acc, category_id: FOOD, date: '2026-04-01' },
        { amount: 9999, is_expense: true, account_id: acc, category_id: FOOD, deleted: true },
        { amount: 3000, is_expense: false, account_id: acc, category_id: 'c0000000-0000-4000-8000-000000000009' },
      ]);
      const response = await tenant.api.get(`/v1/reports/subcategory-details?${PERIOD}`);
      expect(response.status).toBe(200);
      const expenses = response.body.expenses_subcategories;
      expect(
        expenses.map((item: { id: string; value: number; percentage: string }) => [
          item.id,
          item.value,
          item.percentage,
        ]),
      ).toEqual([
        [GROCERIES, 1500, '99.80'],
        [RESTAURANTS, 2, '0.13'],
        [HOUSING, 1, '0.07'],
      ]);
      expect(expenses[0]).toEqual({
        id: GROCERIES,
        title: 'Supermercado',
        value: 1500,
        percentage: '99.80',
        is_essential: true,
        icon_name: 'shopping-cart',
        icon_background_color: expect.stringMatching(/^#/),
        image: null,
      });
      expect(expenses[2]).toMatchObject({ id: HOUSING, title: 'Moradia' });
      expect(response.body.incomes_subcategories).toHaveLength(1);
      expect(response.body.incomes_subcategories[0]).toMatchObject({ value: 3000, percentage: '100.00' });
    });

    it.each([
      ['no dates', ''],
      ['no end', 'start_date=2026-03-01'],
      ['a bad date', 'start_date=2026-02-30&end_date=2026-03-31'],
      ['an end before the start', 'start_date=2026-03-31&end_date=2026-03-01'],
    ])('when the period has %s, then 400 with details', async (_label, query) => {
      const tenant = await stack.tenant();
      for (const path of ['/v1/reports/subcategory-details', '/v1/reports/summary']) {
        const response = await tenant.api.get(`${path}?${query}`);
        expect(response.status).toBe(400);
        expect(response.body.details.length).toBeGreaterThan(0);
      }
    });

    it('when another user or the same user company asks, then they see none of these transactions', async () => {
      const tenant = await stack.tenant();
      const acc = await account(tenant, {});
      await insert(tenant.userId, [{ amount: 100, is_expense: true, account_id: acc, category_id: FOOD }]);
      const other = await stack.tenant();
      const company = await stack.companyClient(tenant.userId);
      for (const api of [other.api, company.api]) {
        expect((await api.get(`/v1/reports/subcategory-details?${PERIOD}`)).body).toEqual({
          expenses_subcategories: [],
          incomes_subcategories: [],
        });
        expect((await api.get(`/v1/reports/summary?${PERIOD}`)).body).toEqual({
          total_balance: 0,
          income: 0,
          expenses: 0,
          to_pay: 0,
          to_receive: 0,
        });
      }
    });

    it('when transfers and bill payments are categorized, then they count only when the preferences include them', async () => {
      const tenant = await stack.tenant();
      const acc = await account(tenant, {});
      await insert(tenant.userId, [
        { amount: 100, is_expense: true, account_id: acc, category_id: FOOD },
        { amount: 40, is_expense: true, account_id: acc, category_id: HOUSING, type: 'TRANSFER' },
        { amount: 60, is_expense: true, account_id: acc, category_id: HOUSING, is_bill_payment: true },
      ]);
      const housing = async () =>
        (await tenant.api.get(`/v1/reports/subcategory-details?${PERIOD}`)).body.expenses_subcategories.find(
          (item: { id: string }) => item.id === HOUSING,
        )?.value ?? 0;
      expect(await housing()).toBe(0);
      expect((await tenant.api.put('/v2/personal-config', { include_transfers: true })).status).toBe(200);
      expect(await housing()).toBe(40);
      await tenant.api.put('/v2/personal-config', { include_transfers: false, include_bill_payments: true });
      expect(await housing()).toBe(60);
    });

    it('when a rolled-over bill carries a categorized previous balance, then the report leaves it out', async () => {
      const tenant = await stack.tenant();
      const acc = await account(tenant, {});
      await insert(tenant.userId, [{ amount: 100, is_expense: true, account_id: acc, category_id: HOUSING }]);
      // the carried balance repeats purchases already counted in their own month
      await stack.sql(
        `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, paid, type, account_id,
           category_id, is_previous_balance, created_at, updated_at)
         values (gen_random_uuid(), $1, 700, '2026-03-10', 'Saldo anterior', true, true, 'FIXED', $2, $3, true, now(), now())`,
        [tenant.userId, acc, HOUSING],
      );
      const response = await tenant.api.get(`/v1/reports/subcategory-details?${PERIOD}`);
      expect(response.body.expenses_subcategories).toEqual([
        expect.objectContaining({ id: HOUSING, value: 100, percentage: '100.00' }),
      ]);
    });

    it('when the period holds 100,000 transactions, then the report is one aggregate query in ledger', async () => {
      const tenant = await stack.tenant();
      const acc = await account(tenant, {});
      await stack.sql(
        `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, paid, type, account_id,
           category_id, subcategory_id, created_at, updated_at)
         select gen_random_uuid(), $1, 1 + (n % 5000), date '2025-01-01' + (n % 365), 'Compra', n % 10 <> 0, true, 'FIXED', $2,
           $3, (array[$4, $5, null])[1 + n % 3]::uuid, now(), now()
         from generate_series(1, 100000) as n`,
        [tenant.userId, acc, FOOD, GROCERIES, RESTAURANTS],
      );
      queries.length = 0;
      const response = await tenant.api.get(
        '/v1/reports/subcategory-details?start_date=2025-01-01&end_date=2025-12-31',
      );
      expect(response.status).toBe(200);
      // the outbox relay polls in the background; only statements reading transactions are the report's
      const ledgerQueries = queries.filter((sql) => sql.startsWith('ledger:') && /\btransactions\b/.test(sql));
      expect(ledgerQueries).toHaveLength(1);
      expect(ledgerQueries[0]).toMatch(/group by/);
      // insights' own outbox relay (webhook jobs, limit events) polls in a transaction of its own too (with its `set local`)
      expect(
        queries.filter(
          (sql) =>
            sql.startsWith('insights:') &&
            !/processed_events|goal_reminders|outbox_events|enable_bitmapscan|\[query\] \S*(begin|commit)$/.test(sql),
        ),
      ).toHaveLength(0);
      const lists = [response.body.expenses_subcategories, response.body.incomes_subcategories];
      for (const list of lists) {
        expect(list).toHaveLength(3);
        const hundredths = list.reduce(
          (sum: number, item: { percentage: string }) => sum + Math.round(Number(item.percentage) * 100),
          0,
        );
        expect(hundredths).toBe(10_000);
      }
      const [total] = await stack.sql<{ sum: string }>(
        'select sum(amount)::text from ledger.transactions where user_id = $1 and is_expense',
        [tenant.userId],
      );
      expect(response.body.expenses_subcategories.reduce((s: number, i: { value: number }) => s + i.value, 0)).toBe(
        Number(total.sum),
      );
    });
  });

  describe('summary and the open-bill, balance and totals preferences', () => {
    let tenant: Tenant;
    // the 80 days up to the context's today: card purchases go through the API, so they take the clock's bills
    const today = todayIn();
    const daysAgo = (days: number) => addDays(today, -days);
    const SUMMARY_PERIOD = `start_date=${daysAgo(80)}&end_date=${today}`;
    const summary = async () => {
      const response = await tenant.api.get(`/v1/reports/summary?${SUMMARY_PERIOD}`);
      expect(response.status).toBe(200);
      return response.body;
    };
    const prefer = async (body: Record<string, boolean>) => {
      const reset = {
        auto_reconcile_enabled: false,
        include_bill_payments: false,
        include_current_bill_in_to_pay: true,
        include_investments: false,
        include_transfers: false,
        show_open_bill: true,
      };
      expect((await tenant.api.put('/v2/personal-config', { ...reset, ...body })).status).toBe(200);
    };
    const DEFAULTS = { total_balance: 114_000, income: 24_000, expenses: 4_000, to_pay: 3_700, to_receive: 4_000 };

    beforeAll(async () => {
      tenant = await stack.tenant();
      const main = await account(tenant, { balance: 100_000 });
      const investment = await account(tenant, { balance: 50_000, type: 'INVESTMENT' });
      await account(tenant, { balance: 7_000, include_total_balance: false });
      const card = await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: main,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      });
      expect(card.status).toBe(201);
      const buy = async (amount: number, date: string) => {
        const response = await tenant.api.post('/v1/transactions', {
          title: 'Compra',
          amount,
          is_expense: true,
          date,
          credit_card_id: card.body.id,
        });
        expect(response.status).toBe(201);
        return response.body;
      };
      // today's purchase is in the card's OPEN bill; one 70 days back is in a bill closed since
      const open = await buy(700, today);
      const closed = await buy(300, daysAgo(70));
      const bills = await stack.sql<{ bill_id: string }>(
        'select bill_id from ledger.transactions where id in ($1, $2)',
        [open.id, closed.id],
      );
      expect(new Set(bills.map((row) => row.bill_id)).size).toBe(2);
      await insert(tenant.userId, [
        { amount: 20_000, is_expense: false, account_id: main, paid: true, date: today },
        { amount: 3_000, is_expense: true, account_id: main, date: today },
        { amount: 4_000, is_expense: false, account_id: main, date: today },
        { amount: 1_000, is_expense: true, account_id: main, paid: true, type: 'TRANSFER', date: today },
        { amount: 1_000, is_expense: false, account_id: investment, paid: true, type: 'TRANSFER', date: today },
        { amount: 5_000, is_expense: true, account_id: main, paid: true, is_bill_payment: true, date: today },
        { amount: 99_999, is_expense: true, account_id: main, date: daysAgo(82) },
        { amount: 99_999, is_expense: true, account_id: main, deleted: true, date: today },
      ]);
    });

    it('when nothing is saved, then the defaults give the documented totals', async () => {
      expect(await summary()).toEqual(DEFAULTS);
    });

    it('when another user or the same user company asks, then their summary holds none of these totals', async () => {
      const other = await stack.tenant();
      const company = await stack.companyClient(tenant.userId);
      for (const api of [other.api, company.api]) {
        const response = await api.get(`/v1/reports/summary?${SUMMARY_PERIOD}`);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ total_balance: 0, income: 0, expenses: 0, to_pay: 0, to_receive: 0 });
      }
    });

    it('when include_investments, then investment accounts count in total_balance', async () => {
      await prefer({ include_investments: true });
      expect(await summary()).toEqual({ ...DEFAULTS, total_balance: 114_000 + 51_000 });
    });

    it('when include_transfers, then transfers count in income and expenses', async () => {
      await prefer({ include_transfers: true });
      expect(await summary()).toEqual({ ...DEFAULTS, income: 25_000, expenses: 5_000 });
    });

    it('when include_bill_payments, then bill payments count in expenses', async () => {
      await prefer({ include_bill_payments: true });
      expect(await summary()).toEqual({ ...DEFAULTS, expenses: 9_000 });
    });

    it('when include_current_bill_in_to_pay is false, then the open bill purchases leave to_pay (the closed one never counts)', async () => {
      await prefer({ include_current_bill_in_to_pay: false });
      expect(await summary()).toEqual({ ...DEFAULTS, to_pay: 3_000 });
    });

    it('when show_open_bill is false, then the open bill purchases leave expenses and the closed bill ones stay', async () => {
      await prefer({ show_open_bill: false });
      expect(await summary()).toEqual({ ...DEFAULTS, expenses: 3_300 });
    });

    it('when the open bill is paid in full, then it is PAID: its purchases stay in expenses and leave to_pay', async () => {
      const other = await stack.tenant();
      const acc = await account(other, { balance: 10_000 });
      const card = (
        await other.api.post('/v1/credit-cards', { name: 'C', account_id: acc, closing_date: 10, expiring_date: 17 })
      ).body.id;
      const bought = await other.api.post('/v1/transactions', {
        title: 'Compra',
        amount: 800,
        is_expense: true,
        date: today,
        credit_card_id: card,
      });
      const ask = async () => (await other.api.get(`/v1/reports/summary?${SUMMARY_PERIOD}`)).body;
      await other.api.put('/v2/personal-config', { show_open_bill: false });
      expect(await ask()).toMatchObject({ expenses: 0, to_pay: 800 });
      const paid = await other.api.post(`/v2/bills/${bought.body.bill_id}/pay`, { account_id: acc });
      expect(paid.status).toBe(200);
      expect(paid.body.bill.status).toBe('PAID');
      await other.api.put('/v2/personal-config', { show_open_bill: false });
      expect(await ask()).toMatchObject({ expenses: 800, to_pay: 0 });
    });
  });

  describe('business DRE', () => {
    it('when a licensed company asks, then groups follow the mapping, the category default and the direction by competence date', async () => {
      const userId = await stack.createUser();
      const company = await stack.companyClient(userId);
      const acc = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      const mapped = await company.api.put('/v2/business/dre-mapping', [{ category_id: HOUSING, dre_group: 'custos' }]);
      expect(mapped.status).toBe(200);
      await insert(userId, [
        { profile_id: company.profileId, amount: 10_000, is_expense: false, account_id: acc },
        { profile_id: company.profileId, amount: 2_000, is_expense: true, account_id: acc, category_id: HOUSING },
        { profile_id: company.profileId, amount: 1_000, is_expense: true, account_id: acc, category_id: FOOD },
        {
          profile_id: company.profileId,
          amount: 500,
          is_expense: true,
          account_id: acc,
          date: '2026-02-01',
          competence_date: '2026-03-05',
        },
        {
          profile_id: company.profileId,
          amount: 800,
          is_expense: true,
          account_id: acc,
          competence_date: '2026-04-05',
        },
        { profile_id: company.profileId, amount: 300, is_expense: true, account_id: acc, type: 'TRANSFER' },
      ]);
      const response = await company.api.get(`/v2/business/dre?${PERIOD}`);
      expect(response.status).toBe(200);
      const group = (name: string) => response.body.groups.find((g: { dre_group: string }) => g.dre_group === name);
      expect(response.body.groups).toHaveLength(7);
      expect(group('receita')).toEqual({
        dre_group: 'receita',
        label: 'Receita bruta',
        income: 10_000,
        expenses: 0,
        total: 10_000,
      });
      expect(group('custos')).toMatchObject({ expenses: 2_000, total: -2_000 });
      expect(group('despesas_operacionais')).toMatchObject({ expenses: 1_500, total: -1_500 });
      expect(response.body).toMatchObject({
        start_date: '2026-03-01',
        end_date: '2026-03-31',
        receita_liquida: 10_000,
        lucro_bruto: 8_000,
        resultado_operacional: 6_500,
        resultado_liquido: 6_500,
      });
    });

    it('when an own category is not mapped, then its entries of either direction land in the default group the mapping shows', async () => {
      const userId = await stack.createUser();
      const company = await stack.companyClient(userId);
      const acc = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      const freight = (await company.api.post('/v1/categories', { name: 'Frete', is_expense: true })).body.id;
      const fees = (await company.api.post('/v1/categories', { name: 'Consultorias', is_expense: false })).body.id;
      const mapping = (await company.api.get('/v2/business/dre-mapping')).body as Array<{
        category_id: string;
        dre_group: string;
      }>;
      expect(mapping.find((e) => e.category_id === freight)?.dre_group).toBe('despesas_operacionais');
      expect(mapping.find((e) => e.category_id === fees)?.dre_group).toBe('receita');
      await insert(userId, [
        { profile_id: company.profileId, amount: 3_000, is_expense: true, account_id: acc, category_id: freight },
        // a refund of freight: income in an expense category
        { profile_id: company.profileId, amount: 400, is_expense: false, account_id: acc, category_id: freight },
        { profile_id: company.profileId, amount: 9_000, is_expense: false, account_id: acc, category_id: fees },
        // a chargeback of a fee: expense in an income category
        { profile_id: company.profileId, amount: 700, is_expense: true, account_id: acc, category_id: fees },
      ]);
      const response = await company.api.get(`/v2/business/dre?${PERIOD}`);
      expect(response.status).toBe(200);
      const group = (name: string) => response.body.groups.find((g: { dre_group: string }) => g.dre_group === name);
      expect(group('despesas_operacionais')).toMatchObject({ income: 400, expenses: 3_000, total: -2_600 });
      expect(group('receita')).toMatchObject({ income: 9_000, expenses: 700, total: 8_300 });
    });

    it('when the same user personal context or another company has entries and mappings, then the DRE ignores them', async () => {
      const userId = await stack.createUser();
      const company = await stack.companyClient(userId);
      const other = await stack.companyClient(userId);
      await other.api.put('/v2/business/dre-mapping', [{ category_id: FOOD, dre_group: 'retiradas' }]);
      const acc = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      await insert(userId, [
        { profile_id: company.profileId, amount: 1_000, is_expense: true, account_id: acc, category_id: FOOD },
        { profile_id: other.profileId, amount: 7_000, is_expense: true, account_id: acc, category_id: FOOD },
        { profile_id: null, amount: 9_000, is_expense: false, account_id: acc },
      ]);
      const response = await company.api.get(`/v2/business/dre?${PERIOD}`);
      expect(response.status).toBe(200);
      const totals = Object.fromEntries(
        response.body.groups.map((g: { dre_group: string; total: number }) => [g.dre_group, g.total]),
      );
      expect(totals).toEqual({
        receita: 0,
        deducoes: 0,
        custos: 0,
        despesas_operacionais: -1_000,
        financeiro: 0,
        investimento: 0,
        retiradas: 0,
      });
      expect(response.body.resultado_liquido).toBe(-1_000);
    });

    it('when a personal key or an inactive company asks, then 403', async () => {
      const tenant = await stack.tenant();
      expect((await tenant.api.get(`/v2/business/dre?${PERIOD}`)).status).toBe(403);
      const inactive = await stack.companyClient(tenant.userId, 'inactive');
      expect((await inactive.api.get(`/v2/business/dre?${PERIOD}`)).status).toBe(403);
    });
  });

  describe('currencies', () => {
    it('when entries are in USD and BRL, then the balance, summary, subcategory report and limit window count the BRL ones only', async () => {
      const person = await stack.tenant();
      // the context's today (São Paulo): from 21:00 there the UTC date is tomorrow's, outside the limit's window
      const today = todayIn();
      const wallet = (await person.api.post('/v1/accounts', { name: 'Conta', logo: '341', balance: 50_000 })).body.id;
      const limit = await person.api.post('/v1/spending-limits', { amount: 100_000, category_id: FOOD });
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
          category_id: FOOD,
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
});
