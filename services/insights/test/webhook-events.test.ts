import { todayUtc } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import { QUEUES, WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';
import { importAndWait, importCompleted } from '../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { WebhookReceiver } from '../../../test/support/webhook-receiver.ts';

interface Received {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, any>;
}

/** Every event type reaches a webhook subscribed to all of them, from the service that owns the change. */
describe('webhook events from every service', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    stack = await TestStack.start({ serviceEnv: { insights: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } } });
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    const created = await tenant.api.post('/v1/webhooks', {
      url: `${receiver.url}/all`,
      events: [...WEBHOOK_EVENT_TYPES],
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  const received = (): Received[] => receiver.on('/all').map((call) => JSON.parse(call.rawBody));
  const eventsWhere = (type: string, match: (event: Received) => boolean) =>
    waitFor(async () => {
      const found = received().filter((event) => event.type === type && match(event));
      return found.length > 0 && found;
    }, 10_000);

  it('when a transaction is created, updated and deleted, then transaction.created, .updated and .deleted arrive', async () => {
    const transaction = (
      await tenant.api.post('/v1/transactions', {
        amount: 2500,
        date: todayUtc(),
        is_expense: true,
        title: 'Livraria',
        account_id: accountId,
      })
    ).body;
    await eventsWhere('transaction.created', (e) => e.data.transactions[0]?.id === transaction.id);
    expect(
      (
        await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${transaction.id}`, {
          amount: 2600,
        })
      ).status,
    ).toBe(200);
    const [updated] = await eventsWhere('transaction.updated', (e) => e.data.transactions[0]?.id === transaction.id);
    expect(updated.data.transactions[0].amount).toBe(2600);
    expect((await tenant.api.delete(`/v1/transactions/${transaction.id}`)).status).toBe(200);
    await eventsWhere('transaction.deleted', (e) => e.data.transactions[0]?.id === transaction.id);
  });

  it('when spending crosses a limit, then spending_limit.warning and spending_limit.exceeded arrive once each', async () => {
    const category = (await tenant.api.post('/v1/categories', { name: 'Lazer', is_expense: true })).body;
    const limit = (
      await tenant.api.post('/v1/spending-limits', {
        amount: 10_000,
        category_id: category.id,
        notification_percentage: 80,
      })
    ).body;
    // dated the context's today (São Paulo): from 21:00 there the UTC date is tomorrow's, outside the limit's window
    const spend = (amount: number) =>
      tenant.api.post('/v1/transactions', {
        amount,
        date: todayIn(),
        is_expense: true,
        title: 'Cinema',
        account_id: accountId,
        category_id: category.id,
      });
    await spend(8500);
    const [warning] = await eventsWhere('spending_limit.warning', (e) => e.data.spending_limit_id === limit.id);
    expect(warning.data).toMatchObject({
      notification_id: expect.any(String),
      title: expect.any(String),
      message: expect.any(String),
      data: { spending_limit_id: limit.id, spent: 8500, amount: 10_000 },
    });
    const notification = (await tenant.api.get('/v1/notifications')).body.data.find(
      (n: { id: string }) => n.id === warning.data.notification_id,
    );
    expect(notification.kind).toBe('SPENDING_LIMIT_WARNING');
    await spend(2000);
    await eventsWhere('spending_limit.exceeded', (e) => e.data.spending_limit_id === limit.id);
    await spend(100);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      received()
        .filter((e) => e.data.spending_limit_id === limit.id)
        .map((e) => e.type),
    ).toEqual(['spending_limit.warning', 'spending_limit.exceeded']);
  });

  it('when the daily reminder job reaches a goal reminder, then goal.reminder arrives', async () => {
    const goal = (
      await tenant.api.post('/v2/goals', {
        title: 'Viagem',
        amount: 500_000,
        deadline: '2027-12-31',
        reminder: { amount: 20_000, frequency: 'MONTHLY', start_date: '2026-01-10' },
      })
    ).body;
    expect(goal.id).toEqual(expect.any(String));
    const queue = stack.service('insights').runtime.queues.get(QUEUES.goalReminders);
    await queue.add('goal-reminders', { today: '2026-02-10' });
    const [reminder] = await eventsWhere('goal.reminder', (e) => e.data.goal_id === goal.id);
    expect(reminder.data).toMatchObject({ notification_id: expect.any(String), data: { goal_id: goal.id } });
  });

  it('when an import completes or fails, then import.completed or import.failed arrives with its job', async () => {
    const body = (connection: string, accountRef: string) => ({
      connection: { id: connection, institution: 'Banco' },
      accounts: [{ external_id: 'a-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1 }],
      transactions: [
        {
          external_id: 't-1',
          account_external_id: accountRef,
          amount: 300,
          date: '2026-03-02',
          is_expense: true,
          title: 'Padaria',
          merchant_name: 'Padaria do Bairro',
        },
      ],
    });
    const job = await importCompleted(tenant.api, body('conn-ok', 'a-1'));
    const [completed] = await eventsWhere('import.completed', (e) => e.data.job_id === job.id);
    expect(completed.data).toMatchObject({ status: 'COMPLETED', error: null, result: job.result });
    const { job: failedJob } = await importAndWait(tenant.api, body('conn-bad', 'a-x'));
    expect(failedJob.state).toBe('failed');
    const [failed] = await eventsWhere('import.failed', (e) => e.data.job_id === failedJob.id);
    expect(failed.data).toMatchObject({ status: 'FAILED', result: null, error: failedJob.error });
  });

  it('when a rule is applied to history, then rule.applied arrives with the count it changed', async () => {
    const category = (await tenant.api.post('/v1/categories', { name: 'Padarias', is_expense: true })).body;
    const source = (await tenant.api.get('/v1/transactions?limit=500')).body.data.find(
      (t: { title: string }) => t.title === 'Padaria',
    );
    const rule = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: source.id,
      category_id: category.id,
      apply_to_existing: true,
    });
    expect(rule.status).toBe(201);
    const [applied] = await eventsWhere('rule.applied', (e) => e.data.rule_id === rule.body.rule.id);
    expect(applied.data).toMatchObject({ job_id: rule.body.job_id, updated: expect.any(Number) });
  });

  it('when the daily job passes a bill closing and due date and the bill is paid, then bill.closed, .overdue and .paid arrive', async () => {
    const card = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 100_000,
      })
    ).body;
    const bought = (
      await tenant.api.post('/v1/transactions', {
        amount: 4000,
        date: '2026-03-05',
        is_expense: true,
        title: 'Compra',
        credit_card_id: card.id,
      })
    ).body;
    const queue = stack.service('billing').runtime.queues.get(QUEUES.billRollover);
    const runAs = async (date: string) => {
      const job = await queue.add('bill-rollover', { date });
      await waitFor(async () => (await queue.getJob(job.id as string))?.finishedOn !== undefined);
    };
    await runAs('2026-03-12');
    const [closed] = await eventsWhere('bill.closed', (e) => e.data.bill_id === bought.bill_id);
    expect(closed.data).toMatchObject({
      credit_card_id: card.id,
      month: '2026-03-01',
      closing_date: '2026-03-10',
      due_date: '2026-03-17',
      balance: 4000,
    });
    await runAs('2026-03-12');
    await runAs('2026-03-18');
    const [overdue] = await eventsWhere('bill.overdue', (e) => e.data.bill_id === bought.bill_id);
    expect(overdue.data.balance).toBe(4000);

    const card2 = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Outro',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 100_000,
      })
    ).body;
    const other = (
      await tenant.api.post('/v1/transactions', {
        amount: 1500,
        date: '2026-04-05',
        is_expense: true,
        title: 'Compra',
        credit_card_id: card2.id,
      })
    ).body;
    expect(
      (await tenant.api.post(`/v2/bills/${other.bill_id}/pay`, { account_id: accountId, amount: 500 })).status,
    ).toBe(200);
    expect((await tenant.api.post(`/v2/bills/${other.bill_id}/pay`, { account_id: accountId })).status).toBe(200);
    const [paid] = await eventsWhere('bill.paid', (e) => e.data.bill_id === other.bill_id);
    expect(paid.data).toMatchObject({ balance: 0, payment: { amount: 1000, transaction_id: expect.any(String) } });
    await runAs('2026-03-18');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const billEvents = received()
      .filter((e) => e.type.startsWith('bill.'))
      .map((e) => `${e.type} ${e.data.bill_id}`);
    expect(billEvents.sort()).toEqual(
      [`bill.closed ${bought.bill_id}`, `bill.overdue ${bought.bill_id}`, `bill.paid ${other.bill_id}`].sort(),
    );
  });
});
