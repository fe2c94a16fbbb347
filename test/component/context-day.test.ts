import { QUEUES, type QueueName } from '@finance/shared/queue/catalogue';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const FOOD = 'c0000000-0000-4000-8000-000000000001';

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

  /** A user whose context lives in `zone` (insights has learnt it too, for its jobs). */
  async function userIn(zone: string | null) {
    const user = await stack.tenant();
    const account = (await user.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id as string;
    if (zone) {
      expect((await user.api.put('/v2/personal-config', { time_zone: zone })).status).toBe(200);
      await waitFor(async () => {
        const rows = await stack.sql('select 1 from insights.context_time_zones where context_id = $1', [user.userId]);
        return rows.length === 1;
      });
    }
    return { ...user, account };
  }

  /** Runs a job of an insights queue with no payload (as the scheduler does) and waits for it to finish. */
  async function runJob(queue: QueueName, name: string) {
    const runtime = stack.service('insights').runtime;
    const job = await runtime.queues.get(queue).add(name, {});
    const done = await waitFor(async () => {
      const current = await runtime.queues.get(queue).getJob(job.id as string);
      return current?.finishedOn ? current : undefined;
    });
    expect(done.failedReason).toBeUndefined();
  }

  const kindsOf = async (api: Tenant['api']) =>
    (await api.get('/v1/notifications')).body.data.map((n: { kind: string }) => n.kind).sort();

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

    it('when the clock passes local midnight at a month end, then the limit window turns, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      const windowOf = async (api: Tenant['api']) => {
        const created = await api.post('/v1/spending-limits', {
          amount: 10_000,
          category_id: FOOD,
          start_date: '2026-01-01',
        });
        expect(created.status).toBe(201);
        return async () => (await api.get(`/v1/spending-limits/${created.body.id}`)).body.current_window;
      };
      const inSaoPaulo = await windowOf(paulista.api);
      const inManaus = await windowOf(manauara.api);
      stack.setNow('2026-03-31T23:30:00-03:00');
      expect(await inSaoPaulo()).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });
      stack.setNow('2026-04-01T00:30:00-03:00');
      expect(await inSaoPaulo()).toMatchObject({ from: '2026-04-01', to: '2026-04-30' });
      expect(await inManaus()).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });
      stack.setNow('2026-04-01T01:30:00-03:00');
      expect(await inManaus()).toMatchObject({ from: '2026-04-01', to: '2026-04-30' });
      // a limit created without start_date starts on the first day of the context's month
      stack.setNow('2026-04-01T00:30:00-03:00');
      const defaulted = await manauara.api.post('/v1/spending-limits', { amount: 10_000, category_id: FOOD });
      expect(defaulted.body.start_date).toBe('2026-03-01');
    });

    it('when the clock passes local midnight, then the yield report default date turns, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      const readyDate = async (api: Tenant['api']) => {
        const response = await api.get('/v1/investments/yield');
        expect(response.status).toBe(200);
        // without snapshots the report is ready the day after its reference date (default: today)
        return response.body.estimated_ready_date;
      };
      stack.setNow('2026-03-17T23:30:00-03:00');
      expect(await readyDate(paulista.api)).toBe('2026-03-18');
      stack.setNow('2026-03-18T00:30:00-03:00');
      expect(await readyDate(paulista.api)).toBe('2026-03-19');
      expect(await readyDate(manauara.api)).toBe('2026-03-18');
      stack.setNow('2026-03-18T01:30:00-03:00');
      expect(await readyDate(manauara.api)).toBe('2026-03-19');
    });

    it('when the reminder job runs around local midnight of the reminder day, then it notifies only from that midnight, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      for (const user of [paulista, manauara]) {
        const goal = await user.api.post('/v2/goals', {
          title: 'Viagem',
          amount: 100_000,
          deadline: '2027-12-31',
          reminder: { amount: 5_000, start_date: '2026-01-18' },
        });
        expect(goal.status).toBe(201);
      }
      stack.setNow('2026-03-17T23:30:00-03:00');
      await runJob(QUEUES.goalReminders, 'goal-reminders');
      expect(await kindsOf(paulista.api)).toEqual([]);
      stack.setNow('2026-03-18T00:30:00-03:00');
      await runJob(QUEUES.goalReminders, 'goal-reminders');
      expect(await kindsOf(paulista.api)).toEqual(['GOAL_REMINDER']);
      expect(await kindsOf(manauara.api)).toEqual([]);
      stack.setNow('2026-03-18T01:30:00-03:00');
      await runJob(QUEUES.goalReminders, 'goal-reminders');
      expect(await kindsOf(manauara.api)).toEqual(['GOAL_REMINDER']);
      expect(await kindsOf(paulista.api)).toEqual(['GOAL_REMINDER']);
    });

    it('when a recurrence is created late in the local day, then its horizon is 12 months after the context today', async () => {
      const paulista = await userIn(null);
      stack.setNow('2026-03-17T23:30:00-03:00');
      const created = await paulista.api.post('/v1/transactions', {
        title: 'Academia',
        amount: 9_000,
        is_expense: true,
        date: '2025-03-18',
        account_id: paulista.account,
        type: 'RECURRENT',
        frequency: 'MONTHLY',
      });
      expect(created.status).toBe(201);
      const [last] = await stack.sql<{ date: string }>(
        "select to_char(max(date), 'YYYY-MM-DD') as date from ledger.transactions where connected_transaction_id = $1",
        [created.body.id],
      );
      // UTC is already on 2026-03-18, whose horizon (2027-03-18) would hold one more occurrence
      expect(last.date).toBe('2027-02-18');
    });
  });

  describe('closing-day history on the context day', () => {
    it('when the closing day has come in UTC but not in the context, then a THIS change still moves that bill, and once local midnight passes it is 409', async () => {
      const paulista = await userIn(null);
      // March 2026 bill: closing 7, due 14
      const cardId = await cardWithPurchase(paulista.api, paulista.account, 7, 14, '2026-03-02');
      const billId = (await paulista.api.get(`/v2/bills/show-by-card/${cardId}?date=2026-03-01`)).body.bill.id;
      // 2026-03-07 00:30 UTC: closed by the UTC date, still open in São Paulo
      stack.setNow('2026-03-06T21:30:00-03:00');
      const open = await paulista.api.patch(`/v2/bills/closing-date/by-card/${cardId}`, {
        closing_day: 8,
        bill_id: billId,
        edition_type: 'THIS',
      });
      expect(open.status).toBe(200);
      expect(String(open.body.bill.closing_date).slice(0, 10)).toBe('2026-03-08');
      stack.setNow('2026-03-08T00:30:00-03:00');
      const closed = await paulista.api.patch(`/v2/bills/closing-date/by-card/${cardId}`, {
        closing_day: 9,
        bill_id: billId,
        edition_type: 'THIS',
      });
      expect(closed.status).toBe(409);
      expect(closed.body.message).toBe('Fatura já fechada: suas datas e lançamentos não mudam');
    });
  });

  describe('the rollover on the context day', () => {
    /** Runs the billing rollover as its scheduler does (no date: each context's today) and waits for it. */
    async function rollOver() {
      const runtime = stack.service('billing').runtime;
      const job = await runtime.queues.get(QUEUES.billRollover).add('bill-rollover', {});
      const done = await waitFor(async () => {
        const current = await runtime.queues.get(QUEUES.billRollover).getJob(job.id as string);
        return current?.finishedOn ? current : undefined;
      });
      expect(done.failedReason).toBeUndefined();
    }
    const carried = (cardId: string) =>
      stack.sql('select 1 from ledger.transactions where credit_card_id = $1 and is_previous_balance', [cardId]);

    it('when a bill due on a Saturday is unpaid, then the rollover carries it only after the next business day, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      // March 2026: closing 7, due Saturday 14; payable until Monday 16
      const inSaoPaulo = await cardWithPurchase(paulista.api, paulista.account, 7, 14, '2026-03-02');
      const inManaus = await cardWithPurchase(manauara.api, manauara.account, 7, 14, '2026-03-02');
      stack.setNow('2026-03-16T23:30:00-03:00');
      await rollOver();
      expect(await carried(inSaoPaulo)).toHaveLength(0);
      stack.setNow('2026-03-17T00:30:00-03:00');
      await rollOver();
      expect(await carried(inSaoPaulo)).toHaveLength(1);
      expect(await carried(inManaus)).toHaveLength(0);
      stack.setNow('2026-03-17T01:30:00-03:00');
      await rollOver();
      expect(await carried(inManaus)).toHaveLength(1);
      expect(await carried(inSaoPaulo)).toHaveLength(1);
    });

    it('when the hourly job passes a closing day and a Saturday due date, then bill.closed and bill.overdue are recorded by each context day and the next business day, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      // March 2026: closing Saturday 7, due Saturday 14; payable until Monday 16
      const inSaoPaulo = await cardWithPurchase(paulista.api, paulista.account, 7, 14, '2026-03-02');
      const inManaus = await cardWithPurchase(manauara.api, manauara.account, 7, 14, '2026-03-02');
      const announced = async (cardId: string) =>
        (
          await stack.sql(
            `select type from billing.outbox_events where payload->'data'->>'credit_card_id' = $1 order by type`,
            [cardId],
          )
        ).map((row) => row.type);
      // UTC is already on the 7th, São Paulo is not
      stack.setNow('2026-03-06T23:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual([]);
      stack.setNow('2026-03-07T00:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed']);
      expect(await announced(inManaus)).toEqual([]);
      stack.setNow('2026-03-07T01:30:00-03:00');
      await rollOver();
      expect(await announced(inManaus)).toEqual(['bill.closed']);
      // the due date is a Saturday: nothing is overdue through Monday
      stack.setNow('2026-03-16T23:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed']);
      stack.setNow('2026-03-17T00:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed', 'bill.overdue']);
      expect(await announced(inManaus)).toEqual(['bill.closed']);
      stack.setNow('2026-03-17T01:30:00-03:00');
      await rollOver();
      expect(await announced(inManaus)).toEqual(['bill.closed', 'bill.overdue']);
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed', 'bill.overdue']);
    });
  });

  describe('limits warn about months that happened', () => {
    it('when a RECURRENT R$ 9,00 expense meets a R$ 10,00 limit, then one warning now and the next on the day of its next occurrence', async () => {
      const user = await userIn(null);
      stack.setNow('2026-11-24T12:00:00-03:00');
      const limit = await user.api.post('/v1/spending-limits', { amount: 1_000, category_id: FOOD });
      expect(limit.status).toBe(201);
      const created = await user.api.post('/v1/transactions', {
        title: 'Mercado',
        amount: 900,
        is_expense: true,
        date: '2026-11-10',
        account_id: user.account,
        category_id: FOOD,
        type: 'RECURRENT',
        frequency: 'MONTHLY',
      });
      expect(created.status).toBe(201);
      const occurrences = await stack.sql('select 1 from ledger.transactions where connected_transaction_id = $1', [
        created.body.id,
      ]);
      expect(occurrences).toHaveLength(13);
      // wait until insights has applied the creation event
      const [event] = await stack.sql<{ id: string }>(
        "select id from ledger.outbox_events where type = 'transaction.changed' and payload->'data'->'transactions'->0->>'id' = $1",
        [created.body.id],
      );
      await waitFor(async () => {
        const rows = await stack.sql('select 1 from insights.processed_events where event_id = $1', [event.id]);
        return rows.length === 1;
      });
      const notes = await stack.sql<{ kind: string; window_from: string }>(
        "select kind, data->>'window_from' as window_from from insights.notifications where user_id = $1",
        [user.userId],
      );
      expect(notes).toEqual([{ kind: 'SPENDING_LIMIT_WARNING', window_from: '2026-11-01' }]);

      // an entry later this month is no spending yet
      await user.api.post('/v1/transactions', {
        title: 'Feira',
        amount: 200,
        is_expense: true,
        date: '2026-11-28',
        account_id: user.account,
        category_id: FOOD,
      });
      const window = async () => (await user.api.get(`/v1/spending-limits/${limit.body.id}`)).body.current_window;
      expect(await window()).toMatchObject({ from: '2026-11-01', spent: 900, status: 'WARNING' });
      stack.setNow('2026-11-28T00:30:00-03:00');
      expect(await window()).toMatchObject({ spent: 1_100, status: 'EXCEEDED' });

      // the daily job warns about December once its entry's day (the 10th) has come in the context's day
      stack.setNow('2026-12-09T23:30:00-03:00');
      await runJob(QUEUES.limitWindows, 'limit-windows');
      const december = () =>
        stack.sql<{ kind: string }>(
          "select kind from insights.notifications where user_id = $1 and data->>'window_from' = '2026-12-01'",
          [user.userId],
        );
      expect(await december()).toEqual([]);
      expect(await window()).toMatchObject({ from: '2026-12-01', to: '2026-12-31', spent: 0, status: 'OK' });
      stack.setNow('2026-12-10T00:30:00-03:00');
      await runJob(QUEUES.limitWindows, 'limit-windows');
      expect(await december()).toEqual([{ kind: 'SPENDING_LIMIT_WARNING' }]);
      await runJob(QUEUES.limitWindows, 'limit-windows');
      expect(await december()).toHaveLength(1);
      expect(await window()).toMatchObject({ from: '2026-12-01', to: '2026-12-31', spent: 900 });
    });
  });
});
