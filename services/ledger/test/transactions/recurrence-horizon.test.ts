import { addDays, addMonthsClamped } from '@finance/shared/calendar';
// the context's today (default zone America/Sao_Paulo), as the services read it
import { todayIn } from '@finance/shared/clock';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { userIn as userInZone } from '../../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { newAccount } from '../../../../test/support/transactions.ts';
import { extendRecurrences } from '../../src/domain/transactions/extend-recurrences.ts';

describe('recurrence horizon job', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = await newAccount(tenant.api);
  });
  afterAll(() => stack?.stop());

  const run = (today: string) => extendRecurrences(stack.service('ledger').orm.em.fork(), today);
  const occurrences = async (seriesId: string) =>
    (
      await stack.sql<{ date: string }>(
        `select to_char(date, 'YYYY-MM-DD') as date from ledger.transactions
         where connected_transaction_id = $1 and deleted_at is null order by date`,
        [seriesId],
      )
    ).map((row) => row.date);
  const expectOnePerDate = (dates: string[], from: string, to: string) => {
    const expected: string[] = [];
    for (let d = from; d <= to; d = addDays(d, 1)) expected.push(d);
    expect(dates).toEqual(expected);
  };
  const recurrence = async (date: string, frequency: string, title = 'Assinatura') => {
    const response = await tenant.api.post('/v1/transactions', {
      amount: 990,
      date,
      is_expense: true,
      title,
      account_id: accountId,
      type: 'RECURRENT',
      frequency,
    });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  it('when the service starts, then the daily scheduler is registered', async () => {
    const queue = stack.service('ledger').runtime.queues.get(QUEUES.recurrence);
    const scheduler = await queue.getJobScheduler('recurrence-horizon');
    expect(scheduler?.pattern).toBe('5 * * * *');
  });

  it('when the job runs twice and after a week of downtime, then each date has exactly one occurrence', async () => {
    const today = todayIn();
    const start = addDays(today, -3);
    const series = await recurrence(start, 'DAILY');
    expectOnePerDate(await occurrences(series), start, addMonthsClamped(today, 12));
    await run(today);
    await run(today);
    expectOnePerDate(await occurrences(series), start, addMonthsClamped(today, 12));
    const weekLater = addDays(today, 7);
    const caughtUp = await run(weekLater);
    expect(caughtUp.created).toBeGreaterThanOrEqual(7);
    await run(weekLater);
    expectOnePerDate(await occurrences(series), start, addMonthsClamped(weekLater, 12));
    const events = await stack.sql(
      `select count(*)::int as n from ledger.outbox_events
       where type = 'transaction.changed' and payload->'context'->>'user_id' = $1`,
      [tenant.userId],
    );
    expect(events[0].n).toBeGreaterThanOrEqual(2);
  });

  it('when a month-end recurrence is extended, then days stay clamped from the anchor', async () => {
    const series = await recurrence('2026-01-31', 'MONTHLY', 'Aluguel');
    await run(addMonthsClamped(todayIn(), 2));
    const dates = await occurrences(series);
    expect(dates.slice(0, 4)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(new Set(dates).size).toBe(dates.length);
  });

  it('when an occurrence was deleted or the series ended, then the job does not bring them back', async () => {
    const today = todayIn();
    const series = await recurrence(today, 'WEEKLY', 'Feira');
    const [second] = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where connected_transaction_id = $1 and series_index = 1',
      [series],
    );
    await tenant.api.delete(`/v1/transactions/${second.id}`);
    const before = await occurrences(series);
    await run(today);
    expect(await occurrences(series)).toEqual(before);
    const ended = await recurrence(today, 'DAILY', 'Encerrada');
    await tenant.api.delete(`/v1/transactions/${ended}?edition_type=ALL`);
    await run(addDays(today, 30));
    expect(await occurrences(ended)).toEqual([]);
  });

  it('when "this and next" is deleted from a date beyond the horizon, then the series grows up to that date and stops', async () => {
    const today = todayIn();
    const series = await recurrence(today, 'MONTHLY', 'Mensalidade');
    const cut = addMonthsClamped(today, 15);
    const deleted = await tenant.api.delete(
      `/v1/transactions/${series}?edition_type=THIS_AND_NEXT&edition_date=${cut}`,
    );
    expect(deleted.status).toBe(200);
    expect(await occurrences(series)).toHaveLength(13);
    await run(addMonthsClamped(today, 6));
    const expected = Array.from({ length: 15 }, (_, k) => addMonthsClamped(today, k));
    expect(await occurrences(series)).toEqual(expected);
    await run(addMonthsClamped(today, 24));
    expect(await occurrences(series)).toEqual(expected);
    const [state] = await stack.sql('select ended from ledger.recurrence_series where series_id = $1', [series]);
    expect(state.ended).toBe(true);

    // from a date inside the horizon: the later occurrences go and none come back
    const short = await recurrence(today, 'MONTHLY', 'Curso');
    const from = addMonthsClamped(today, 3);
    await tenant.api.delete(`/v1/transactions/${short}?edition_type=THIS_AND_NEXT&edition_date=${from}`);
    await run(addMonthsClamped(today, 6));
    expect(await occurrences(short)).toEqual(expected.slice(0, 3));
  });

  it('when a tagged recurrence is extended, then the new occurrences carry its tags', async () => {
    const today = todayIn();
    const tag = await tenant.api.post('/v1/tags', { name: 'Recorrente' });
    const response = await tenant.api.post('/v1/transactions', {
      amount: 990,
      date: today,
      is_expense: true,
      title: 'Streaming',
      account_id: accountId,
      type: 'RECURRENT',
      tag_ids: [tag.body.id],
    });
    const series = response.body.id as string;
    const created = await run(addMonthsClamped(today, 3));
    expect(created.created).toBeGreaterThan(0);
    const untagged = await stack.sql(
      `select t.id from ledger.transactions t where t.connected_transaction_id = $1
       and not exists (select 1 from ledger.transaction_tags g where g.transaction_id = t.id and g.tag_id = $2)`,
      [series, tag.body.id],
    );
    expect(untagged).toEqual([]);
  });

  it('when later occurrences were edited, then new ones copy the latest occurrence', async () => {
    const today = todayIn();
    const series = await recurrence(today, 'MONTHLY', 'Academia');
    await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${series}`, {
      amount: 12345,
      edition_type: 'ALL',
    });
    await run(addMonthsClamped(today, 3));
    const amounts = await stack.sql<{ amount: number }>(
      'select distinct amount::int from ledger.transactions where connected_transaction_id = $1',
      [series],
    );
    expect(amounts).toEqual([{ amount: 12345 }]);
  });

  describe('the context time zone', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);

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
});
