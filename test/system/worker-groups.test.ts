import { QUEUES } from '@finance/shared/queue/catalogue';
import { workerQueueFilter } from '@finance/shared/service/start-service';
import { TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

describe('worker groups: WORKER_QUEUES picks the queues a worker process consumes', () => {
  it('when WORKER_QUEUES is unset, then every queue is consumed; when it names queues, then only those; an unknown name refuses the start', () => {
    expect(workerQueueFilter(undefined)('ledger.imports')).toBe(true);
    const only = workerQueueFilter('ledger.imports,outbox');
    expect([only('ledger.imports'), only('outbox'), only('ledger.recurrence')]).toEqual([true, true, false]);
    expect(() => workerQueueFilter('ledger.imports,ledger.imprts')).toThrow(
      'WORKER_QUEUES: unknown queue(s) ledger.imprts',
    );
  });

  it('when WORKER_QUEUES names queues with a leading -, then every queue but those is consumed; mixing both forms or an unknown name refuses the start', () => {
    const allBut = workerQueueFilter('-ledger.statement-files');
    expect([allBut('ledger.statement-files'), allBut('ledger.imports'), allBut('outbox')]).toEqual([false, true, true]);
    expect(() => workerQueueFilter('-ledger.statement-files,ledger.imports')).toThrow('not both');
    expect(() => workerQueueFilter('-ledger.statement-file')).toThrow('unknown queue(s) ledger.statement-file');
  });

  describe('a ledger worker limited to the recurrence queue', () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await TestStack.start({
        serviceEnv: { ledger: { WORKER_QUEUES: QUEUES.recurrence, WORKER_CONCURRENCY: '2' } },
      });
    });
    afterAll(() => stack?.stop());

    it('when jobs reach its queue and others, then it runs its own and leaves the outbox relay and other queues to their group', async () => {
      const queues = stack.service('ledger').runtime.queues;
      const own = await queues.get(QUEUES.recurrence).add('extend-recurrences', {});
      const other = await queues.get(QUEUES.consentRevocation).add('revoke', { connection_id: 'x' });
      const tenant = await stack.tenant();
      const account = (await tenant.api.post('/v1/accounts', { name: 'Sem relay', logo: '341' })).body;

      await waitFor(async () => (await queues.get(QUEUES.recurrence).getJobState(own.id as string)) === 'completed');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await queues.get(QUEUES.consentRevocation).getJobState(other.id as string)).toBe('waiting');
      // the relay belongs to the group that lists `outbox`: the event waits in the outbox
      expect(
        await stack.sql(`select published_at from ledger.outbox_events where payload -> 'data' ->> 'account_id' = $1`, [
          account.id,
        ]),
      ).toEqual([{ published_at: null }]);
    });
  });
});
