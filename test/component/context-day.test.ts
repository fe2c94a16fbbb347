import { type Tenant, TestStack } from '../support/stack.ts';

// Issue 11: the user's own "today" (time zone of the context), business-day due dates, limits that warn
// only about spending dated up to today, goal progress and the DRE default of "Impostos e taxas".
describe('the context day: time zone, business days, limits, goals and DRE defaults', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterEach(() => stack.setNow(null));
  afterAll(() => stack?.stop());

  async function cardWithPurchase(api: Tenant['api'], account: string, closing: number, due: number, date: string) {
    const card = (
      await api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: account,
        closing_date: closing,
        expiring_date: due,
        limit: 1_000_000,
      })
    ).body;
    const bought = await api.post('/v1/transactions', {
      title: 'Compra',
      is_expense: true,
      amount: 5000,
      date,
      credit_card_id: card.id,
    });
    expect(bought.status).toBe(201);
    return card.id as string;
  }

  const billStatus = async (api: Tenant['api'], cardId: string, date: string) => {
    const response = await api.get(`/v2/bills/show-by-card/${cardId}?date=${date}`);
    expect(response.status).toBe(200);
    return response.body.bill.status as string;
  };

  describe('due dates on non-business days', () => {
    it('when a bill is due on a Saturday, then it is CLOSED through Monday and OVERDUE on Tuesday', async () => {
      // March 2026: closing 7, due Saturday 14; payable until Monday 16
      const cardId = await cardWithPurchase(tenant.api, accountId, 7, 14, '2026-03-02');
      stack.setNow('2026-03-15T12:00:00-03:00');
      expect(await billStatus(tenant.api, cardId, '2026-03-01')).toBe('CLOSED');
      stack.setNow('2026-03-16T20:00:00-03:00');
      expect(await billStatus(tenant.api, cardId, '2026-03-01')).toBe('CLOSED');
      stack.setNow('2026-03-17T12:00:00-03:00');
      expect(await billStatus(tenant.api, cardId, '2026-03-01')).toBe('OVERDUE');
    });

    it('when a bill is due on Carnival Tuesday, then it is not OVERDUE until after Ash Wednesday', async () => {
      // Carnival 2026: Monday 16 and Tuesday 17 February
      const cardId = await cardWithPurchase(tenant.api, accountId, 10, 17, '2026-02-02');
      stack.setNow('2026-02-18T12:00:00-03:00');
      expect(await billStatus(tenant.api, cardId, '2026-02-01')).toBe('CLOSED');
      stack.setNow('2026-02-19T12:00:00-03:00');
      expect(await billStatus(tenant.api, cardId, '2026-02-01')).toBe('OVERDUE');
    });
  });

  describe('DRE default of "Impostos e taxas"', () => {
    const IMPOSTOS = 'c0000000-0000-4000-8000-000000000009';

    it('when a company never mapped "Impostos e taxas", then its default is deducoes and its entries reduce net revenue', async () => {
      const company = await stack.companyClient(tenant.userId);
      const account = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      const mapping = (await company.api.get('/v2/business/dre-mapping')).body as Array<Record<string, unknown>>;
      expect(mapping.find((entry) => entry.category_id === IMPOSTOS)).toEqual({
        category_id: IMPOSTOS,
        category_name: 'Impostos e taxas',
        dre_group: 'deducoes',
        is_system: true,
        source: 'default',
      });
      for (const [amount, isExpense, category] of [
        [10_000, false, null],
        [1_500, true, IMPOSTOS],
      ] as const) {
        const created = await company.api.post('/v1/transactions', {
          title: 'Lançamento',
          amount,
          is_expense: isExpense,
          date: '2026-03-05',
          account_id: account,
          category_id: category,
          paid: true,
        });
        expect(created.status).toBe(201);
      }
      const dre = await company.api.get('/v2/business/dre?start_date=2026-03-01&end_date=2026-03-31');
      expect(dre.status).toBe(200);
      const group = (name: string) => dre.body.groups.find((g: { dre_group: string }) => g.dre_group === name);
      expect(group('deducoes')).toMatchObject({ expenses: 1_500, total: -1_500 });
      expect(group('financeiro')).toMatchObject({ expenses: 0, total: 0 });
      expect(dre.body).toMatchObject({ receita_liquida: 8_500 });
    });

    it('when a company mapped "Impostos e taxas" itself, then its choice stands', async () => {
      const company = await stack.companyClient(tenant.userId);
      await company.api.put('/v2/business/dre-mapping', [{ category_id: IMPOSTOS, dre_group: 'financeiro' }]);
      const mapping = (await company.api.get('/v2/business/dre-mapping')).body as Array<Record<string, unknown>>;
      expect(mapping.find((entry) => entry.category_id === IMPOSTOS)).toMatchObject({
        dre_group: 'financeiro',
        source: 'mapping',
      });
    });
  });

  describe('goal progress', () => {
    it('when a goal has deposits and a withdrawal, then every read shows saved and progress_percent', async () => {
      const goal = (await tenant.api.post('/v2/goals', { title: 'Reserva', amount: 300_000, deadline: '2027-12-31' }))
        .body;
      expect(goal).toMatchObject({ saved: 0, progress_percent: 0 });
      for (const [value, isExpense] of [
        [100_000, false],
        [5_000, false],
        [4_000, true],
      ] as const) {
        const added = await tenant.api.post(`/v2/goals/${goal.id}/values`, {
          date: '2026-03-01',
          value,
          is_expense: isExpense,
        });
        expect(added.status).toBe(201);
      }
      const expected = { saved: 101_000, progress_percent: 33.66 };
      expect((await tenant.api.get(`/v2/goals/${goal.id}`)).body.goal).toMatchObject(expected);
      const listed = (await tenant.api.get('/v2/goals')).body.data.find((g: { id: string }) => g.id === goal.id);
      expect(listed).toMatchObject(expected);
      const updated = await tenant.api.put(`/v2/goals/${goal.id}`, { amount: 101_000 });
      expect(updated.body).toMatchObject({ saved: 101_000, progress_percent: 100 });
      const deleted = await tenant.api.delete(`/v2/goals/${goal.id}`);
      expect(deleted.body).toMatchObject({ saved: 101_000, progress_percent: 100 });
    });
  });
});
