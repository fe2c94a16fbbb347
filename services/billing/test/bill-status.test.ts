import { cardWithPurchase, userIn as userInZone } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

// A bill's status (OPEN, CLOSED, OVERDUE) follows the context's day: its time zone and the next business day
// after a due date on a weekend or holiday.
describe('billing: bill status by the context day', () => {
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

  const userIn = (zone: string | null) => userInZone(stack, zone);

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

  describe('the context time zone', () => {
    it('when a bill is due on 2026-03-17, then it turns OVERDUE at local midnight, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      const inSaoPaulo = await cardWithPurchase(paulista.api, paulista.account, 10, 17, '2026-03-02');
      const inManaus = await cardWithPurchase(manauara.api, manauara.account, 10, 17, '2026-03-02');
      stack.setNow('2026-03-17T23:30:00-03:00');
      expect(await billStatus(paulista.api, inSaoPaulo, '2026-03-01')).toBe('CLOSED');
      expect(await billStatus(manauara.api, inManaus, '2026-03-01')).toBe('CLOSED');
      stack.setNow('2026-03-18T00:30:00-03:00');
      expect(await billStatus(paulista.api, inSaoPaulo, '2026-03-01')).toBe('OVERDUE');
      expect(await billStatus(manauara.api, inManaus, '2026-03-01')).toBe('CLOSED');
      stack.setNow('2026-03-18T01:30:00-03:00');
      expect(await billStatus(manauara.api, inManaus, '2026-03-01')).toBe('OVERDUE');
      // the bill a read without `date` shows is the one of the context's month
      stack.setNow('2026-03-31T23:30:00-03:00');
      const march = await paulista.api.get(`/v2/bills/show-by-card/${inSaoPaulo}`);
      expect(march.body.bill.expiring_date).toBe('2026-03-17T00:00:00.000Z');
      stack.setNow('2026-04-01T00:30:00-03:00');
      const april = await paulista.api.get(`/v2/bills/show-by-card/${inSaoPaulo}`);
      expect(april.body.bill.expiring_date).toBe('2026-04-17T00:00:00.000Z');
    });
  });
});
