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
});
