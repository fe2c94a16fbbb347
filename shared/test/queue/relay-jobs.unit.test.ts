import {
  DEFAULT_JOB_OPTIONS,
  EVENT_BATCH_JOB,
  type EventBatch,
  MAX_CHANGED_PER_EVENT,
  QUEUES,
} from '@finance/shared/queue/catalogue';
import { jobsByQueue, type PendingRow } from '@finance/shared/queue/relay-jobs';
import fc from 'fast-check';

const at = new Date('2026-03-01T12:00:00.000Z');

/** Outbox rows as the relay selects them: events of the types with routes, jobs for one queue, any weight. */
const rowArb: fc.Arbitrary<PendingRow> = fc.oneof(
  fc
    .record({
      id: fc.uuid(),
      transactions: fc.nat({ max: 3 * MAX_CHANGED_PER_EVENT }),
      type: fc.constantFrom(
        'transaction.changed',
        'account.created',
        'bill.paid',
        'connection.consent_revoke_requested',
      ),
    })
    .map(
      ({ id, transactions, type }): PendingRow => ({
        id,
        type,
        queue: null,
        payload: {
          event_id: id,
          type,
          occurred_at: at.toISOString(),
          context: { user_id: id, profile_id: null },
          data: type === 'transaction.changed' ? { transactions: Array(transactions).fill({}) } : {},
        },
        created_at: at,
      }),
    ),
  fc.uuid().map(
    (id): PendingRow => ({
      id,
      type: 'webhook.delivery',
      queue: QUEUES.webhookDeliveries,
      payload: { delivery_id: id, traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      created_at: at,
    }),
  ),
);
const rowsArb = fc.uniqueArray(rowArb, { selector: (row) => row.id, maxLength: 60 });

const weight = (event: { data?: { transactions?: unknown[] } }) => Math.max(event.data?.transactions?.length ?? 1, 1);

describe('relay jobs: the outbox rows of one relay pass become few jobs and lose none', () => {
  it('each queue gets every event routed to it once, in order, in batches of at most MAX_CHANGED_PER_EVENT transactions (or one event)', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const jobs = jobsByQueue(rows);
        const queues = [
          QUEUES.insightsLedgerEvents,
          QUEUES.transactionChanges,
          QUEUES.webhookEvents,
          QUEUES.consentRevocation,
        ];
        // one job per consuming service: no event goes to two queues of insights
        expect([...jobs.keys()].filter((queue) => queue !== QUEUES.webhookDeliveries).sort()).toEqual(
          queues.filter((queue) => jobs.has(queue)).sort(),
        );
        for (const queue of queues) {
          const batches = (jobs.get(queue) ?? []).map((job) => {
            expect(job.name).toBe(EVENT_BATCH_JOB);
            expect(job.opts).toMatchObject(DEFAULT_JOB_OPTIONS);
            return (job.data as EventBatch).events;
          });
          for (const events of batches) {
            expect(events.length).toBeGreaterThan(0);
            if (events.length > 1)
              expect(events.reduce((sum, event) => sum + weight(event as never), 0)).toBeLessThanOrEqual(
                MAX_CHANGED_PER_EVENT,
              );
          }
          const queueOf: Record<string, string> = {
            'connection.consent_revoke_requested': QUEUES.consentRevocation,
            'account.created': QUEUES.insightsLedgerEvents,
            'transaction.changed': QUEUES.transactionChanges,
            'bill.paid': QUEUES.webhookEvents,
          };
          const routed = rows.filter((row) => !row.queue && queueOf[row.type] === queue);
          expect(batches.flat().map((event) => event.event_id)).toEqual(routed.map((row) => row.id));
        }
      }),
    );
  });

  it('a job row stays one job, its id the row id and its trace in the job metadata, not in its data', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const deliveries = jobsByQueue(rows).get(QUEUES.webhookDeliveries) ?? [];
        const expected = rows.filter((row) => row.queue === QUEUES.webhookDeliveries);
        expect(deliveries.map((job) => job.opts?.jobId)).toEqual(expected.map((row) => row.id));
        for (const job of deliveries) {
          expect(job.data).toEqual({ delivery_id: job.opts?.jobId });
          expect(job.opts?.telemetry?.metadata).toContain('4bf92f3577b34da6a3ce929d0e0e4736');
        }
      }),
    );
  });

  it('the same rows relayed again get the same job ids (one job); other rows never share one', () => {
    // the second pass holds some of the first's rows and others, as after a crash between adding and marking
    const passes = fc
      .tuple(rowsArb, rowsArb)
      .chain(([first, other]) => fc.tuple(fc.constant(first), fc.subarray([...first, ...other])));
    fc.assert(
      fc.property(passes, ([first, second]) => {
        const ids = (rows: PendingRow[]) =>
          [...jobsByQueue(rows).values()].flat().map((job) => `${job.opts?.jobId}:${JSON.stringify(job.data)}`);
        expect(ids(structuredClone(first))).toEqual(ids(first));
        const byId = new Map<string, string>();
        for (const entry of [...ids(first), ...ids(second)]) {
          const [id] = entry.split(':');
          const data = entry.slice(id.length + 1);
          if (byId.has(id)) expect(byId.get(id)).toBe(data);
          byId.set(id, data);
        }
      }),
    );
  });
});
