import { startOfMonth } from '@finance/shared/calendar';
// the context's today (default zone America/Sao_Paulo), as the services read it
import { todayIn } from '@finance/shared/clock';
import { internalRoutes } from '@finance/shared/contracts/internal/index';
import { ledgerForInsightsRoutes } from '@finance/shared/contracts/internal/ledger-for-insights';
import { lookupIn, pathOf } from '@finance/shared/contracts/route';
import { EVENT_BATCH_JOB, QUEUES, type QueueName } from '@finance/shared/queue/catalogue';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { runInsightsJob, userIn as userInZone } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

const FOOD = 'c0000000-0000-4000-8000-000000000001';
const GROCERIES = '5c000000-0000-4000-8000-000100000001';
const HOUSING_RENT = '5c000000-0000-4000-8000-000200000001';
const MISSING = '0190a000-0000-7000-8000-000000000000';

describe('insights: spending limits through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const spend = (api: ApiClient, account: string, amount: number, extra: Record<string, unknown> = {}) =>
    api.post('/v1/transactions', {
      amount,
      date: todayIn(),
      is_expense: true,
      title: 'Compra',
      account_id: account,
      category_id: FOOD,
      ...extra,
    });
  const countLimits = async () => Number((await stack.sql('select count(*) from insights.spending_limits'))[0].count);

  it('when only amount and category are sent, then the PRODUCT defaults apply and every field is returned', async () => {
    const response = await tenant.api.post('/v1/spending-limits', { amount: 100000, category_id: FOOD });
    expect(response.status).toBe(201);
    const today = todayIn();
    expect(response.body).toEqual({
      id: expect.any(String),
      title: 'Alimentação',
      amount: 100000,
      category_id: FOOD,
      subcategory_id: null,
      frequency: 'MONTHLY',
      start_date: startOfMonth(today),
      notification_percentage: 80,
      current_window: {
        from: startOfMonth(today),
        to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        spent: 0,
        percentage: 0,
        status: 'OK',
      },
      profile_id: null,
      user_id: tenant.userId,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const [row] = await stack.sql<{ amount: string; start_date: string }>(
      "select amount::text, to_char(start_date, 'YYYY-MM-DD') as start_date from insights.spending_limits where id = $1",
      [response.body.id],
    );
    expect(row).toEqual({ amount: '100000', start_date: startOfMonth(today) });
  });

  it('when frequency is lower case and a subcategory of the category is sent, then they are kept', async () => {
    const response = await tenant.api.post('/v1/spending-limits', {
      amount: 5000,
      category_id: FOOD,
      subcategory_id: GROCERIES,
      frequency: 'weekly',
      start_date: '2026-01-05',
      title: 'Mercado',
      notification_percentage: 50,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      title: 'Mercado',
      frequency: 'WEEKLY',
      subcategory_id: GROCERIES,
      start_date: '2026-01-05',
      notification_percentage: 50,
    });
  });

  it.each([
    ['amount missing', { category_id: FOOD }, 'amount'],
    ['amount zero', { amount: 0, category_id: FOOD }, 'amount'],
    ['amount as string', { amount: '10', category_id: FOOD }, 'amount'],
    ['category missing', { amount: 10 }, 'category_id'],
    ['category not a uuid', { amount: 10, category_id: 'x' }, 'category_id'],
    ['unknown frequency', { amount: 10, category_id: FOOD, frequency: 'HOURLY' }, 'frequency'],
    ['YEARLY instead of ANNUAL', { amount: 10, category_id: FOOD, frequency: 'YEARLY' }, 'frequency'],
    ['percentage 0', { amount: 10, category_id: FOOD, notification_percentage: 0 }, 'notification_percentage'],
    ['percentage 101', { amount: 10, category_id: FOOD, notification_percentage: 101 }, 'notification_percentage'],
    ['impossible start date', { amount: 10, category_id: FOOD, start_date: '2026-02-30' }, 'start_date'],
    ['empty title', { amount: 10, category_id: FOOD, title: '' }, 'title'],
    ['unknown field', { amount: 10, category_id: FOOD, color: 'red' }, 'color'],
  ])('when %s, then 400 with details and nothing is written', async (_label, body, field) => {
    const before = await countLimits();
    const response = await tenant.api.post('/v1/spending-limits', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countLimits()).toBe(before);
  });

  it('when a listing cursor is well-formed but holds no id, then 400 with details, not a failed query', async () => {
    const cursor = (values: string[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    for (const path of [
      `/v1/spending-limits?cursor=${cursor(['abc'])}`,
      `/v2/goals?cursor=${cursor(['abc'])}`,
      `/v1/notifications?cursor=${cursor(['2026-01-01T00:00:00.000Z', 'abc'])}`,
      `/v1/notifications?cursor=${cursor(['not a date', '0190a000-0000-7000-8000-000000000000'])}`,
    ]) {
      const response = await tenant.api.get(path);
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'cursor', message: 'cursor inválido' }]);
    }
  });

  it('when the limit starts in year 9999, then its first window ends on the last day of the calendar', async () => {
    const response = await tenant.api.post('/v1/spending-limits', {
      amount: 10,
      category_id: FOOD,
      frequency: 'annual',
      start_date: '9999-06-01',
    });
    expect(response.status).toBe(201);
    expect(response.body.current_window).toEqual({
      from: '9999-06-01',
      to: '9999-12-31',
      spent: 0,
      percentage: 0,
      status: 'OK',
    });
    expect((await tenant.api.get(`/v1/spending-limits/${response.body.id}`)).status).toBe(200);
    await tenant.api.delete(`/v1/spending-limits/${response.body.id}`);
  });

  it('when the subcategory belongs to another category, then 400', async () => {
    const response = await tenant.api.post('/v1/spending-limits', {
      amount: 10,
      category_id: FOOD,
      subcategory_id: HOUSING_RENT,
    });
    expect(response.status).toBe(400);
    expect(response.body.details[0].field).toBe('subcategory_id');
  });

  it('when the category is unknown or of another context, then 404 and nothing is written', async () => {
    const other = await stack.tenant();
    const own = await other.api.post('/v1/categories', {
      name: 'Privada',
      is_expense: true,
      icon_name: 'x',
      icon_background_color: '#000000',
    });
    expect(own.status).toBe(201);
    const company = await stack.companyClient(tenant.userId);
    const companyCategory = await company.api.post('/v1/categories', {
      name: 'Da empresa',
      is_expense: true,
      icon_name: 'x',
      icon_background_color: '#000000',
    });
    const before = await countLimits();
    for (const categoryId of [MISSING, own.body.id, companyCategory.body.id]) {
      const response = await tenant.api.post('/v1/spending-limits', { amount: 10, category_id: categoryId });
      expect(response.status).toBe(404);
    }
    expect(await countLimits()).toBe(before);
    const created = (await tenant.api.post('/v1/spending-limits', { amount: 10, category_id: FOOD })).body;
    for (const categoryId of [own.body.id, companyCategory.body.id]) {
      const moved = await tenant.api.put(`/v1/spending-limits/${created.id}`, { category_id: categoryId, amount: 99 });
      expect(moved.status).toBe(404);
    }
    const [row] = await stack.sql('select category_id, amount::int from insights.spending_limits where id = $1', [
      created.id,
    ]);
    expect(row).toEqual({ category_id: FOOD, amount: 10 });
    await tenant.api.delete(`/v1/spending-limits/${created.id}`);
  });

  it('when a limit of another user or of the same user company is read, changed or deleted, then 404 and it is unchanged', async () => {
    const created = (await tenant.api.post('/v1/spending-limits', { amount: 777, category_id: FOOD })).body;
    const other = await stack.tenant();
    const company = await stack.companyClient(tenant.userId);
    for (const api of [other.api, company.api]) {
      expect((await api.get(`/v1/spending-limits/${created.id}`)).status).toBe(404);
      expect((await api.put(`/v1/spending-limits/${created.id}`, { amount: 1 })).status).toBe(404);
      expect((await api.delete(`/v1/spending-limits/${created.id}`)).status).toBe(404);
      expect((await api.get('/v1/spending-limits')).body.data).toEqual([]);
    }
    const [row] = await stack.sql('select amount::int from insights.spending_limits where id = $1', [created.id]);
    expect(row.amount).toBe(777);
  });

  it('when a read-only key writes, then 403 and nothing changes', async () => {
    const before = await countLimits();
    expect((await tenant.readOnly.post('/v1/spending-limits', { amount: 10, category_id: FOOD })).status).toBe(403);
    const created = (await tenant.api.post('/v1/spending-limits', { amount: 10, category_id: FOOD })).body;
    expect((await tenant.readOnly.put(`/v1/spending-limits/${created.id}`, { amount: 20 })).status).toBe(403);
    expect((await tenant.readOnly.delete(`/v1/spending-limits/${created.id}`)).status).toBe(403);
    expect(await countLimits()).toBe(before + 1);
    expect((await tenant.readOnly.get(`/v1/spending-limits/${created.id}`)).status).toBe(200);
  });

  it('when updating, then only sent fields change, a new category drops the subcategory, and delete removes it', async () => {
    const created = (
      await tenant.api.post('/v1/spending-limits', { amount: 10, category_id: FOOD, subcategory_id: GROCERIES })
    ).body;
    const updated = await tenant.api.put(`/v1/spending-limits/${created.id}`, { amount: 20, frequency: 'annual' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      amount: 20,
      frequency: 'ANNUAL',
      subcategory_id: GROCERIES,
      title: 'Alimentação',
    });
    const moved = await tenant.api.put(`/v1/spending-limits/${created.id}`, {
      category_id: 'c0000000-0000-4000-8000-000000000002',
    });
    expect(moved.body).toMatchObject({ category_id: 'c0000000-0000-4000-8000-000000000002', subcategory_id: null });
    expect((await tenant.api.put(`/v1/spending-limits/${created.id}`, {})).status).toBe(400);
    expect((await tenant.api.put(`/v1/spending-limits/${created.id}`, { category_id: MISSING })).status).toBe(404);
    const deleted = await tenant.api.delete(`/v1/spending-limits/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(created.id);
    expect((await tenant.api.get(`/v1/spending-limits/${created.id}`)).status).toBe(404);
  });

  it('when listing many limits, then each has its current window from one ledger call', async () => {
    const user = await stack.tenant();
    const account = (await user.api.post('/v1/accounts', { name: 'C', logo: '341' })).body.id;
    expect((await spend(user.api, account, 3000)).status).toBe(201);
    expect((await spend(user.api, account, 1000, { subcategory_id: GROCERIES })).status).toBe(201);
    expect((await spend(user.api, account, 500, { type: 'FIXED', is_expense: false })).status).toBe(201);
    for (let i = 0; i < 5; i++) await user.api.post('/v1/spending-limits', { amount: 5000, category_id: FOOD });
    await user.api.post('/v1/spending-limits', { amount: 1000, category_id: FOOD, subcategory_id: GROCERIES });
    // the warnings worker also reads spending for these purchases' events: let it finish before counting
    await waitFor(async () => {
      const [row] = await stack.sql<{ pending: number }>(
        `select count(*)::int as pending from ledger.outbox_events o
          where o.type = 'transaction.changed' and o.payload -> 'context' ->> 'user_id' = $1
            and not exists (select 1 from insights.processed_events p where p.event_id = o.id)`,
        [user.userId],
      );
      return row.pending === 0;
    });
    const ledger = stack.service('ledger');
    let aggregateCalls = 0;
    const spending = pathOf(lookupIn(ledgerForInsightsRoutes)('spendingByWindow'));
    ledger.server.on('request', (req) => {
      if (req.url?.startsWith(spending)) aggregateCalls += 1;
    });
    const page = await user.api.get('/v1/spending-limits?limit=10');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(6);
    expect(page.body.next_cursor).toBeNull();
    expect(aggregateCalls).toBe(1);
    expect(page.body.data.slice(0, 5).map((l: { current_window: unknown }) => l.current_window)).toEqual(
      Array(5).fill(expect.objectContaining({ spent: 4000, percentage: 80, status: 'WARNING' })),
    );
    expect(page.body.data[5].current_window).toMatchObject({ spent: 1000, percentage: 100, status: 'EXCEEDED' });
    const first = await user.api.get('/v1/spending-limits?limit=4');
    expect(first.body.data).toHaveLength(4);
    const second = await user.api.get(`/v1/spending-limits?limit=4&cursor=${first.body.next_cursor}`);
    expect(second.body.data).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
  });

  it('when spending crosses 80 % and 100 % with concurrent requests and redelivered events, then one notification per level per window', async () => {
    const user = await stack.tenant();
    const account = (await user.api.post('/v1/accounts', { name: 'C', logo: '341' })).body.id;
    const limit = (await user.api.post('/v1/spending-limits', { amount: 10000, category_id: FOOD })).body;
    // ten concurrent purchases of 15 % each: the window passes 80 % and 100 % while events race
    const responses = await Promise.all(Array.from({ length: 10 }, () => spend(user.api, account, 1500)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    const kinds = async () =>
      (await user.api.get('/v1/notifications')).body.data.map((n: { kind: string }) => n.kind).sort();
    await waitFor(async () => (await kinds()).length === 2, 15_000);
    // redeliver every event the ledger recorded: the inbox and the business key make them no-ops
    const events = await stack.sql<{ id: string; payload: unknown }>(
      "select id, payload from ledger.outbox_events where type = 'transaction.changed'",
    );
    const queue = stack.service('insights').runtime.queues.get(QUEUES.transactionChanges);
    // as the relay sends them (one batch), then each in a batch of its own, under its id (the inbox stops it) and
    // under a new one (the business key stops it)
    await Promise.all([
      queue.add(EVENT_BATCH_JOB, { events: events.map((event) => event.payload) }),
      ...events.flatMap((event) => [
        queue.add(EVENT_BATCH_JOB, { events: [event.payload] }, { jobId: `${event.id}-again` }),
        queue.add(EVENT_BATCH_JOB, { events: [{ ...(event.payload as object), event_id: crypto.randomUUID() }] }),
      ]),
    ]);
    await waitFor(async () => {
      const count = await queue.getJobCounts('waiting', 'active');
      return count.waiting + count.active === 0;
    }, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await kinds()).toEqual(['SPENDING_LIMIT_EXCEEDED', 'SPENDING_LIMIT_WARNING']);
    const rows = await stack.sql<{ kind: string; data: Record<string, unknown> }>(
      'select kind, data from insights.notifications where user_id = $1',
      [user.userId],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.data).toMatchObject({ spending_limit_id: limit.id, window_from: limit.current_window.from });
    }
  });

  it('when a limit is created or lowered below what is already spent, then it warns at once, once per level', async () => {
    const user = await stack.tenant();
    const account = (await user.api.post('/v1/accounts', { name: 'C', logo: '341' })).body.id;
    expect((await spend(user.api, account, 5000)).status).toBe(201);
    const notifications = async () =>
      (await user.api.get('/v1/notifications')).body.data.map((n: { kind: string }) => n.kind).sort();

    const created = await user.api.post('/v1/spending-limits', { amount: 6000, category_id: FOOD });
    expect(created.status).toBe(201);
    expect(created.body.current_window).toMatchObject({ spent: 5000, status: 'WARNING' });
    expect(await notifications()).toEqual(['SPENDING_LIMIT_WARNING']);

    const lowered = await user.api.put(`/v1/spending-limits/${created.body.id}`, { amount: 4000 });
    expect(lowered.body.current_window).toMatchObject({ spent: 5000, status: 'EXCEEDED' });
    expect(await notifications()).toEqual(['SPENDING_LIMIT_EXCEEDED', 'SPENDING_LIMIT_WARNING']);
    // the same levels in the same window again: nothing new, also not from the purchase's late event
    await user.api.put(`/v1/spending-limits/${created.body.id}`, { amount: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await notifications()).toEqual(['SPENDING_LIMIT_EXCEEDED', 'SPENDING_LIMIT_WARNING']);

    const roomy = await user.api.post('/v1/spending-limits', { amount: 100_000, category_id: FOOD });
    expect(roomy.body.current_window.status).toBe('OK');
    expect(await notifications()).toHaveLength(2);
  });

  it('when any internal contract is asked through the gateway, then 404: they are not public', async () => {
    const answered = [];
    for (const route of internalRoutes) {
      const read = route.method === 'get';
      const path = `${pathOf(route)}${read ? '?start_date=2026-01-01&end_date=2026-01-31' : ''}`;
      const status = (await tenant.api.request(route.method.toUpperCase(), path, read ? {} : { body: {} })).status;
      answered.push(`${route.method.toUpperCase()} ${route.path} ${status}`);
    }
    expect(answered).toEqual(internalRoutes.map((route) => `${route.method.toUpperCase()} ${route.path} 404`));
  });

  it('when the OpenAPI document is read, then it lists the limit, goal, notification and report routes', async () => {
    const doc = (await stack.client().get('/openapi.json')).body;
    for (const path of [
      '/v1/spending-limits',
      '/v1/spending-limits/{id}',
      '/v2/goals/{id}/values/{valueId}',
      '/v1/notifications/{id}',
      '/v1/reports/subcategory-details',
      '/v1/reports/summary',
      '/v2/business/dre',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it("when a transaction.changed event arrives on the ledger events' queue, then the job fails at once without retries (it goes to its own queue)", async () => {
    const queue = stack.service('insights').runtime.queues.get(QUEUES.insightsLedgerEvents);
    const event = {
      event_id: crypto.randomUUID(),
      type: 'transaction.changed',
      occurred_at: new Date().toISOString(),
      context: { user_id: tenant.userId, profile_id: null },
      data: { change: 'created', transactions: [] },
    };
    const job = await queue.add(EVENT_BATCH_JOB, { events: [event] });
    const failed = await waitFor(async () => (await job.isFailed()) && (await queue.getJob(job.id as string)), 20_000);
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toBe('no handler for event transaction.changed');
  });

  describe('the context time zone', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);

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
  });

  describe('limits warn about months that happened', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);
    const runJob = (queue: QueueName, name: string) => runInsightsJob(stack, queue, name);

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
