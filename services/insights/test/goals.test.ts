import { QUEUES, type QueueName } from '@finance/shared/queue/catalogue';
import { runInsightsJob, userIn as userInZone } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

const FOOD = 'c0000000-0000-4000-8000-000000000001';
const MISSING = '0190a000-0000-7000-8000-000000000000';

describe('insights: goals, goal values, reminders and notifications through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const goalBody = { title: 'Viagem', amount: 1_000_000, deadline: '2027-06-30' };
  const countGoals = async () => Number((await stack.sql('select count(*) from insights.goals'))[0].count);
  const runReminders = async (today: string) => {
    const queue = stack.service('insights').runtime.queues.get('insights.goal-reminders');
    const job = await queue.add('goal-reminders', { today });
    await waitFor(() => job.isCompleted());
    expect(await job.isCompleted()).toBe(true);
  };

  it('when a goal is created with a category and a reminder, then every field is returned and GET wraps it in {goal}', async () => {
    const response = await tenant.api.post('/v2/goals', {
      ...goalBody,
      image: 'https://img.example/viagem.png',
      is_monthly: true,
      category_id: FOOD,
      reminder: { amount: 50_000, frequency: 'monthly', start_date: '2026-01-31' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      title: 'Viagem',
      amount: 1_000_000,
      deadline: '2027-06-30T00:00:00.000Z',
      image: 'https://img.example/viagem.png',
      is_monthly: true,
      home_card_closed: false,
      category_id: FOOD,
      category: expect.objectContaining({
        id: FOOD,
        name: 'Alimentação',
        user_id: null,
        icon_name: expect.any(String),
      }),
      values: [],
      saved: 0,
      progress_percent: 0,
      reminder: {
        id: expect.any(String),
        goal_id: response.body.id,
        amount: 50_000,
        frequency: 'MONTHLY',
        start_date: '2026-01-31',
        end_date: null,
        last_notification: null,
        user_id: tenant.userId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      profile_id: null,
      user_id: tenant.userId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const got = await tenant.api.get(`/v2/goals/${response.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ goal: response.body });
    const list = await tenant.api.get('/v2/goals');
    expect(list.body.data.map((g: { id: string }) => g.id)).toContain(response.body.id);
  });

  it('when a goal has no category, then category is null', async () => {
    const response = await tenant.api.post('/v2/goals', goalBody);
    expect(response.body).toMatchObject({ category_id: null, category: null, reminder: null, image: null });
  });

  it.each([
    ['title missing', { amount: 1, deadline: '2027-01-01' }, 'title'],
    ['amount missing', { title: 'x', deadline: '2027-01-01' }, 'amount'],
    ['amount negative', { title: 'x', amount: -1, deadline: '2027-01-01' }, 'amount'],
    ['deadline invalid', { title: 'x', amount: 1, deadline: 'amanhã' }, 'deadline'],
    ['image not a URL', { ...goalBody, image: 'foto' }, 'image'],
    [
      'reminder weekly',
      { ...goalBody, reminder: { amount: 1, frequency: 'WEEKLY', start_date: '2026-01-01' } },
      'reminder.frequency',
    ],
    ['reminder without start', { ...goalBody, reminder: { amount: 1 } }, 'reminder.start_date'],
    [
      'reminder ending before it starts',
      { ...goalBody, reminder: { amount: 1, start_date: '2026-05-01', end_date: '2026-04-01' } },
      'reminder.end_date',
    ],
    ['unknown field', { ...goalBody, color: 'blue' }, 'color'],
  ])('when %s, then 400 with details and nothing is written', async (_label, body, field) => {
    const before = await countGoals();
    const response = await tenant.api.post('/v2/goals', body);
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countGoals()).toBe(before);
  });

  it('when the category is unknown or of another context, then 404 and nothing is written', async () => {
    const other = await stack.tenant();
    const foreign = await other.api.post('/v1/categories', {
      name: 'Outra',
      is_expense: true,
      icon_name: 'x',
      icon_background_color: '#000000',
    });
    const before = await countGoals();
    for (const category_id of [MISSING, foreign.body.id]) {
      expect((await tenant.api.post('/v2/goals', { ...goalBody, category_id })).status).toBe(404);
    }
    expect(await countGoals()).toBe(before);
  });

  it('when a goal is created or moved to a category of the same user company, then 404 and nothing changes', async () => {
    const company = await stack.companyClient(tenant.userId);
    const theirs = await company.api.post('/v1/categories', {
      name: 'Da empresa',
      is_expense: true,
      icon_name: 'x',
      icon_background_color: '#000000',
    });
    expect(theirs.status).toBe(201);
    const goal = (await tenant.api.post('/v2/goals', goalBody)).body;
    const before = await countGoals();
    expect((await tenant.api.post('/v2/goals', { ...goalBody, category_id: theirs.body.id })).status).toBe(404);
    const moved = await tenant.api.put(`/v2/goals/${goal.id}`, { category_id: theirs.body.id, title: 'Outra' });
    expect(moved.status).toBe(404);
    expect(await countGoals()).toBe(before);
    const [row] = await stack.sql('select title, category_id from insights.goals where id = $1', [goal.id]);
    expect(row).toEqual({ title: goal.title, category_id: null });
  });

  it('when deposits and withdrawals are registered, then a withdrawal beyond the saved amount is 400', async () => {
    const goal = (await tenant.api.post('/v2/goals', goalBody)).body;
    const deposit = await tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-01-10', value: 30_000 });
    expect(deposit.status).toBe(201);
    expect(deposit.body).toEqual({
      id: expect.any(String),
      goal_id: goal.id,
      date: '2026-01-10T00:00:00.000Z',
      value: 30_000,
      is_expense: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const over = await tenant.api.post(`/v2/goals/${goal.id}/values`, {
      date: '2026-01-11',
      value: 30_001,
      is_expense: true,
    });
    expect(over.status).toBe(400);
    expect(over.body.details[0].field).toBe('value');
    // concurrent withdrawals of 20 000 each: only one fits in 30 000
    const racing = await Promise.all(
      [1, 2, 3].map(() =>
        tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-01-12', value: 20_000, is_expense: true }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    const withdrawal = racing.find((r) => r.status === 201)!.body;
    // the deposit backs the withdrawal: deleting it would leave the goal negative
    expect((await tenant.api.delete(`/v2/goals/${goal.id}/values/${deposit.body.id}`)).status).toBe(400);
    const removed = await tenant.api.delete(`/v2/goals/${goal.id}/values/${withdrawal.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.id).toBe(withdrawal.id);
    const got = (await tenant.api.get(`/v2/goals/${goal.id}`)).body.goal;
    expect(got.values.map((v: { id: string }) => v.id)).toEqual([deposit.body.id]);
    expect((await tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-02-30', value: 1 })).status).toBe(400);
    expect((await tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-02-01' })).status).toBe(400);
  });

  it('when another user or the same user company touches a goal or its values, then 404 and nothing changes', async () => {
    const goal = (await tenant.api.post('/v2/goals', goalBody)).body;
    const value = (await tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-01-10', value: 100 })).body;
    const other = await stack.tenant();
    const company = await stack.companyClient(tenant.userId);
    for (const api of [other.api, company.api]) {
      expect((await api.get(`/v2/goals/${goal.id}`)).status).toBe(404);
      expect((await api.put(`/v2/goals/${goal.id}`, { title: 'x' })).status).toBe(404);
      expect((await api.delete(`/v2/goals/${goal.id}`)).status).toBe(404);
      expect((await api.post(`/v2/goals/${goal.id}/values`, { date: '2026-01-10', value: 1 })).status).toBe(404);
      expect((await api.delete(`/v2/goals/${goal.id}/values/${value.id}`)).status).toBe(404);
      expect((await api.get('/v2/goals')).body.data).toEqual([]);
    }
    const got = (await tenant.api.get(`/v2/goals/${goal.id}`)).body.goal;
    expect(got.title).toBe('Viagem');
    expect(got.values).toHaveLength(1);
  });

  it('when a read-only key writes goals, then 403 and nothing changes', async () => {
    const goal = (await tenant.api.post('/v2/goals', goalBody)).body;
    const before = await countGoals();
    expect((await tenant.readOnly.post('/v2/goals', goalBody)).status).toBe(403);
    expect((await tenant.readOnly.put(`/v2/goals/${goal.id}`, { title: 'x' })).status).toBe(403);
    expect((await tenant.readOnly.delete(`/v2/goals/${goal.id}`)).status).toBe(403);
    expect((await tenant.readOnly.post(`/v2/goals/${goal.id}/values`, { date: '2026-01-01', value: 1 })).status).toBe(
      403,
    );
    expect(await countGoals()).toBe(before);
  });

  it('when a goal is updated, then only sent fields change, reminder null removes it, and delete cascades', async () => {
    const goal = (
      await tenant.api.post('/v2/goals', { ...goalBody, reminder: { amount: 1, start_date: '2026-01-01' } })
    ).body;
    const updated = await tenant.api.put(`/v2/goals/${goal.id}`, { amount: 2_000_000, home_card_closed: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Viagem', amount: 2_000_000, home_card_closed: true });
    expect(updated.body.reminder.id).toBe(goal.reminder.id);
    const noReminder = await tenant.api.put(`/v2/goals/${goal.id}`, { reminder: null });
    expect(noReminder.body.reminder).toBeNull();
    expect((await tenant.api.put(`/v2/goals/${goal.id}`, {})).status).toBe(400);
    await tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-01-10', value: 100 });
    const deleted = await tenant.api.delete(`/v2/goals/${goal.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(goal.id);
    expect((await tenant.api.get(`/v2/goals/${goal.id}`)).status).toBe(404);
    expect(await stack.sql('select 1 from insights.goal_values where goal_id = $1', [goal.id])).toHaveLength(0);
  });

  it('when the reminder job runs twice on the due day, then one notification and last_notification is set', async () => {
    const user = await stack.tenant();
    const goal = (
      await user.api.post('/v2/goals', {
        ...goalBody,
        reminder: { amount: 12_345, start_date: '2026-01-31', end_date: '2026-12-31' },
      })
    ).body;
    await runReminders('2026-02-27');
    expect((await user.api.get('/v1/notifications')).body.data).toEqual([]);
    // February has no 31st: the reminder is due on the 28th
    await runReminders('2026-02-28');
    await runReminders('2026-02-28');
    const list = await user.api.get('/v1/notifications');
    expect(list.body.data).toEqual([
      {
        id: expect.any(String),
        kind: 'GOAL_REMINDER',
        title: 'Lembrete da meta "Viagem"',
        message: expect.stringContaining('R$ 123,45'),
        data: { goal_id: goal.id, goal_reminder_id: goal.reminder.id, due_date: '2026-02-28' },
        read_at: null,
        createdAt: expect.any(String),
      },
    ]);
    const reminder = (await user.api.get(`/v2/goals/${goal.id}`)).body.goal.reminder;
    expect(reminder.last_notification).toBe('2026-02-28T00:00:00.000Z');
    // a late run in March catches up once; after end_date nothing more
    await runReminders('2026-03-31');
    await runReminders('2027-01-31');
    const kinds = (await user.api.get('/v1/notifications')).body.data.map(
      (n: { data: { due_date: string } }) => n.data.due_date,
    );
    expect(kinds).toEqual(['2026-03-31', '2026-02-28']);
  });

  it('when notifications are read, filtered and paged, then PATCH toggles read_at and isolation holds', async () => {
    const user = await stack.tenant();
    for (const day of ['05', '06', '07']) {
      await user.api.post('/v2/goals', { ...goalBody, reminder: { amount: 100, start_date: `2026-01-${day}` } });
    }
    await runReminders('2026-01-10');
    const all = (await user.api.get('/v1/notifications')).body.data;
    expect(all).toHaveLength(3);
    const read = await user.api.patch(`/v1/notifications/${all[0].id}`, { read: true });
    expect(read.status).toBe(200);
    expect(read.body.read_at).toEqual(expect.stringMatching(/Z$/));
    const again = await user.api.patch(`/v1/notifications/${all[0].id}`, { read: true });
    expect(again.body.read_at).toBe(read.body.read_at);
    const unread = (await user.api.get('/v1/notifications?unread=true')).body.data;
    expect(unread.map((n: { id: string }) => n.id)).toEqual([all[1].id, all[2].id]);
    expect((await user.api.patch(`/v1/notifications/${all[0].id}`, { read: false })).body.read_at).toBeNull();
    const first = await user.api.get('/v1/notifications?limit=2');
    expect(first.body.data).toHaveLength(2);
    const second = await user.api.get(`/v1/notifications?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((n: { id: string }) => n.id)).toEqual([all[2].id]);
    expect(second.body.next_cursor).toBeNull();
    expect((await user.api.patch(`/v1/notifications/${all[0].id}`, { read: 'yes' })).status).toBe(400);
    expect((await user.api.patch(`/v1/notifications/${all[0].id}`, {})).status).toBe(400);
    expect((await user.api.get('/v1/notifications?unread=maybe')).status).toBe(400);
    expect((await user.api.get('/v1/notifications?cursor=bad')).status).toBe(400);
    expect((await user.readOnly.patch(`/v1/notifications/${all[0].id}`, { read: true })).status).toBe(403);
    const company = await stack.companyClient(user.userId);
    for (const api of [tenant.api, company.api]) {
      expect((await api.patch(`/v1/notifications/${all[1].id}`, { read: true })).status).toBe(404);
    }
    const [row] = await stack.sql('select read_at from insights.notifications where id = $1', [all[1].id]);
    expect(row.read_at).toBeNull();
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

  describe('the context time zone', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);
    const runJob = (queue: QueueName, name: string) => runInsightsJob(stack, queue, name);
    const kindsOf = async (api: Tenant['api']) =>
      (await api.get('/v1/notifications')).body.data.map((n: { kind: string }) => n.kind).sort();

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
        category_id: FOOD,
        start_date: '2026-03-01T00:00:00.000Z',
      });
      expect(limit.status).toBe(201);
      expect(limit.body.start_date).toMatch(/^2026-03-01/);
      const bad = await tenant.api.post(`/v2/goals/${goal.body.id}/values`, { date: '2026-02-30T10:00:00Z', value: 1 });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([{ field: 'date', message: 'date não é uma data válida' }]);
    });
  });
});
