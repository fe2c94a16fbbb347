import { QUEUES } from '@finance/shared/queue/catalogue';
import { TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

describe('retention: a scheduled job deletes old outbox and inbox rows', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { OUTBOX_RETENTION_DAYS: '3', INBOX_RETENTION_DAYS: '20' } });
  });
  afterAll(() => stack?.stop());

  const ids = async (sql: string) => (await stack.sql<{ id: string }>(sql)).map((row) => row.id).sort();

  it('when the retention job runs, then rows older than the configured days go and newer or unrelayed rows stay', async () => {
    const [oldRelayed, newRelayed, oldPending] = await ids(
      `insert into ledger.outbox_events (id, type, payload, created_at, published_at) values
         ('00000000-0000-4000-8000-000000000001', 'retention.test', '{}', now() - interval '6 days', now() - interval '5 days'),
         ('00000000-0000-4000-8000-000000000002', 'retention.test', '{}', now() - interval '3 days', now() - interval '2 days'),
         ('00000000-0000-4000-8000-000000000003', 'retention.test', '{}', now() - interval '9 days', null)
       returning id`,
    );
    for (const schema of ['insights', 'billing']) {
      await stack.sql(
        `insert into ${schema}.processed_events (event_id, consumer, type, processed_at) values
           ('00000000-0000-4000-8000-0000000000a1', 'retention-test', 'retention.test', now() - interval '25 days'),
           ('00000000-0000-4000-8000-0000000000a2', 'retention-test', 'retention.test', now() - interval '10 days')`,
      );
    }

    // each service registered its hourly scheduler at start
    for (const [service, queue] of [
      ['ledger', QUEUES.ledgerRetention],
      ['billing', QUEUES.billingRetention],
      ['insights', QUEUES.insightsRetention],
    ] as const) {
      const schedulers = await stack.service(service).runtime.queues.get(queue).getJobSchedulers();
      expect(schedulers).toEqual([expect.objectContaining({ key: 'retention', pattern: '23 * * * *' })]);
      // run it now instead of waiting for :23
      await stack.service(service).runtime.queues.get(queue).add('prune', {});
    }

    await waitFor(async () => (await ids('select id from ledger.outbox_events')).every((id) => id !== oldRelayed));
    for (const schema of ['insights', 'billing']) {
      await waitFor(async () => {
        const left = await stack.sql<{ event_id: string }>(
          `select event_id from ${schema}.processed_events where consumer = 'retention-test' order by event_id`,
        );
        return left.length === 1 && left;
      });
      expect(
        await stack.sql(`select event_id from ${schema}.processed_events where consumer = 'retention-test'`),
      ).toEqual([{ event_id: '00000000-0000-4000-8000-0000000000a2' }]);
    }
    const outbox = await ids('select id from ledger.outbox_events');
    expect(outbox).toEqual(expect.arrayContaining([newRelayed, oldPending]));
    expect(outbox).not.toContain(oldRelayed);

    const metrics = await (await fetch(`${stack.service('ledger').url}/metrics`)).text();
    expect(metrics).toMatch(/retention_deleted_rows_total\{service="ledger",table="outbox"\} [1-9]/);
    expect(metrics).toMatch(/retention_deleted_rows_total\{service="insights",table="inbox"\} [1-9]/);
  });
});
