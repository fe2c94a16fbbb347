import { EVENT_BATCH_JOB, type EventBatch, QUEUES, type QueueName } from '@finance/shared/queue/catalogue';
import type { Job } from 'bullmq';
import { TestStack } from '../support/stack.ts';
import { tableContents } from '../support/table-contents.ts';
import { waitFor } from '../support/wait-for.ts';

const UNKNOWN_UUID = '0190a000-0000-7000-8000-0000000000ff';

/** A relayed event as the outbox relay sends it: alone in its batch. */
const batchOf = (event: Record<string, unknown>) => ({ events: [event] }) as unknown as EventBatch;

/** A batch of one event with a well-formed envelope: only its type and data are in question. */
const batchOfEvent = (type: string, data: Record<string, unknown>) =>
  batchOf({
    event_id: UNKNOWN_UUID,
    type,
    occurred_at: '2026-03-01T00:00:00.000Z',
    context: { user_id: UNKNOWN_UUID, profile_id: null },
    data,
  });

/** Every scheduled or relayed job refuses a malformed payload at once: one attempt, a clear reason, nothing written. */
describe('background jobs with poisoned payloads', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  const serviceOf: Partial<Record<QueueName, string>> = {
    [QUEUES.billRollover]: 'billing',
    [QUEUES.goalReminders]: 'insights',
    [QUEUES.limitWindows]: 'insights',
    [QUEUES.cashFlowAlerts]: 'insights',
    [QUEUES.insightsLedgerEvents]: 'insights',
    [QUEUES.transactionChanges]: 'insights',
    [QUEUES.consentRevocation]: 'ledger',
    [QUEUES.recategorization]: 'ledger',
    [QUEUES.recurrence]: 'ledger',
    [QUEUES.cardMoves]: 'ledger',
    [QUEUES.statementFiles]: 'ledger',
    [QUEUES.cardLedgerSync]: 'billing',
    [QUEUES.billingLedgerEvents]: 'billing',
    [QUEUES.webhookEvents]: 'insights',
    [QUEUES.webhookDeliveries]: 'insights',
  };

  async function settled(queue: QueueName, name: string, data: unknown): Promise<Job> {
    const runtime = stack.service(serviceOf[queue] as string).runtime;
    const job = await runtime.queues.get(queue).add(name, data as never);
    return waitFor(async () => {
      const current = await runtime.queues.get(queue).getJob(job.id as string);
      return current?.finishedOn ? current : undefined;
    });
  }

  it.each([
    ['a rollover date that is no date', QUEUES.billRollover, 'bill-rollover', { date: 'ontem' }, 'bad rollover date'],
    [
      'a limit window day that does not exist',
      QUEUES.limitWindows,
      'limit-windows',
      { today: '2026-02-30' },
      'bad limit window date',
    ],
    [
      'a cash-flow alerts instant that is no instant',
      QUEUES.cashFlowAlerts,
      'cash-flow-alerts',
      { at: 'ontem' },
      'bad cash-flow alerts instant',
    ],
    [
      'a reminder day that does not exist',
      QUEUES.goalReminders,
      'goal-reminders',
      { today: '2026-02-30' },
      'bad goal reminder date',
    ],
    [
      'a revocation without a connection',
      QUEUES.consentRevocation,
      EVENT_BATCH_JOB,
      batchOf({
        event_id: UNKNOWN_UUID,
        type: 'connection.consent_revoke_requested',
        context: { user_id: UNKNOWN_UUID },
        data: {},
      }),
      'Pedido de revogação inválido',
    ],
    [
      'a revocation of a connection nobody has',
      QUEUES.consentRevocation,
      EVENT_BATCH_JOB,
      batchOf({
        event_id: UNKNOWN_UUID,
        type: 'connection.consent_revoke_requested',
        context: { user_id: UNKNOWN_UUID, profile_id: null },
        data: { connection_id: UNKNOWN_UUID },
      }),
      'Conexão não encontrada para revogação',
    ],
    [
      'a time zone event naming no IANA zone',
      QUEUES.insightsLedgerEvents,
      EVENT_BATCH_JOB,
      batchOf({
        event_id: UNKNOWN_UUID,
        type: 'context.time_zone_changed',
        context: { user_id: UNKNOWN_UUID, profile_id: null },
        data: { time_zone: 'Mars/Olympus', changed_at: '2026-03-17T12:00:00.000000Z' },
      }),
      'malformed context.time_zone_changed event',
    ],
    [
      'an event batch that holds no list',
      QUEUES.insightsLedgerEvents,
      EVENT_BATCH_JOB,
      { events: 'x' },
      'malformed event batch',
    ],
    [
      'an event nobody consumes',
      QUEUES.insightsLedgerEvents,
      EVENT_BATCH_JOB,
      batchOf({ event_id: UNKNOWN_UUID, type: 'bill.paid', context: { user_id: UNKNOWN_UUID, profile_id: null } }),
      'no handler for event bill.paid',
    ],
    [
      "a bill's payment event without its payment",
      QUEUES.billingLedgerEvents,
      EVENT_BATCH_JOB,
      batchOfEvent('bill.payment_recorded', { bill_id: UNKNOWN_UUID }),
      'malformed bill.payment_recorded event',
    ],
    [
      'a transaction change without its transactions',
      QUEUES.transactionChanges,
      EVENT_BATCH_JOB,
      batchOfEvent('transaction.changed', { change: 'created' }),
      'malformed transaction.changed event',
    ],
    [
      'an event the transaction changes do not take',
      QUEUES.transactionChanges,
      EVENT_BATCH_JOB,
      batchOfEvent('account.created', {}),
      'no handler for event account.created',
    ],
    [
      'a recategorization without a job id',
      QUEUES.recategorization,
      'recategorize',
      { job_id: 'x' },
      'job_id inválido',
    ],
    [
      'a recategorization of an unknown run',
      QUEUES.recategorization,
      'recategorize',
      { job_id: UNKNOWN_UUID },
      `recategorization run ${UNKNOWN_UUID} not found`,
    ],
    [
      'a card move without its accounts',
      QUEUES.cardMoves,
      'move-cards',
      { context: { user_id: UNKNOWN_UUID, profile_id: null }, from_account_id: 'x' },
      'Movimentação de cartões inválida',
    ],
    [
      'a statement file import without its job',
      QUEUES.statementFiles,
      'statement-file.import',
      { context: { user_id: UNKNOWN_UUID, profile_id: null } },
      'Tarefa de importação inválida: "background_job_id" is required',
    ],
    [
      'a statement file import of a job nobody has',
      QUEUES.statementFiles,
      'statement-file.import',
      { background_job_id: UNKNOWN_UUID, context: { user_id: UNKNOWN_UUID, profile_id: null } },
      'Tarefa de importação desconhecida neste contexto',
    ],
    [
      'a card sync without its card',
      QUEUES.cardLedgerSync,
      'rebill',
      { context: { user_id: UNKNOWN_UUID, profile_id: null }, calendar_version: 1 },
      'Sincronização de cartão inválida',
    ],
    [
      'a webhook event of a type no webhook takes',
      QUEUES.webhookEvents,
      EVENT_BATCH_JOB,
      batchOfEvent('account.created', {}),
      'malformed webhook event',
    ],
    [
      'a webhook event without a context',
      QUEUES.webhookEvents,
      EVENT_BATCH_JOB,
      batchOf({ event_id: UNKNOWN_UUID, type: 'bill.paid', occurred_at: '2026-03-01T00:00:00.000Z', data: {} }),
      'malformed webhook event',
    ],
    [
      'a webhook delivery without a delivery id',
      QUEUES.webhookDeliveries,
      'webhook.delivery',
      { delivery_id: 'x' },
      'malformed webhook delivery job',
    ],
  ] as const)(
    'when a job carries %s, then it fails once with the reason and writes nothing',
    async (_what, queue, name, data, reason) => {
      const before = await tableContents(stack);
      const job = await settled(queue, name, data);
      expect(await job.getState()).toBe('failed');
      expect(job.failedReason).toBe(reason);
      expect(job.attemptsMade).toBe(1);
      expect(await tableContents(stack)).toEqual(before);
    },
  );

  it('when one event of a batch is malformed, then the others are applied once and the job fails once naming it', async () => {
    const good = crypto.randomUUID();
    const event = (id: string, type: string, data: Record<string, unknown>) => ({
      event_id: id,
      type,
      occurred_at: '2026-03-01T00:00:00.000Z',
      context: { user_id: UNKNOWN_UUID, profile_id: null },
      data,
    });
    const batch: EventBatch = {
      events: [
        event(crypto.randomUUID(), 'context.time_zone_changed', { time_zone: 'Mars/Olympus', changed_at: 'ontem' }),
        event(good, 'account.created', { account_id: UNKNOWN_UUID, name: 'Conta', type: null }),
      ] as EventBatch['events'],
    };
    const job = await settled(QUEUES.insightsLedgerEvents, EVENT_BATCH_JOB, batch);
    expect(await job.getState()).toBe('failed');
    expect(job.failedReason).toBe('malformed context.time_zone_changed event');
    expect(job.attemptsMade).toBe(1);
    const recorded = await stack.sql<{ event_id: string }>(
      "select event_id from insights.processed_events where consumer = 'insights' and event_id = any($1::uuid[])",
      [batch.events.map((item) => item.event_id)],
    );
    expect(recorded).toEqual([{ event_id: good }]);
  });

  it('when a webhook delivery job names no delivery, then it completes sending nothing and changes nothing', async () => {
    const before = await tableContents(stack);
    const done = await settled(QUEUES.webhookDeliveries, 'webhook.delivery', { delivery_id: UNKNOWN_UUID });
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toMatchObject({ status: 'SKIPPED', attempt: null });
    expect(await tableContents(stack)).toEqual(before);
  });

  it('when the recurrence job gets a payload it does not use, then it runs as scheduled and changes nothing', async () => {
    const before = await tableContents(stack);
    const done = await settled(QUEUES.recurrence, 'extend-recurrences', { today: 'ontem', junk: [1] });
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toEqual({ series: 0, created: 0 });
    expect(await tableContents(stack)).toEqual(before);
  });
});
