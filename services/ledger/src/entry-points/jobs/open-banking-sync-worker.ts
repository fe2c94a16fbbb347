import { contextOfRef, contextRefSchema } from '@finance/shared/db/context-scope';
import { type OpenBankingSyncJob, QUEUES } from '@finance/shared/queue/catalogue';
import { DelayedError, UnrecoverableError } from 'bullmq';
import Joi from 'joi';
import type { LedgerRuntime } from '../../config.ts';
import { forEachConnectionDue } from '../../domain/open-banking/connections.ts';
import { RetryLater, SYNC_JOB, syncConnection } from '../../domain/open-banking/sync-connection.ts';
import { openFinanceFor } from '../../open-finance.ts';

export const SYNC_SCHEDULER_ID = 'open-banking-sync-all';
const SYNC_ALL_JOB = 'open-banking.sync-all';

const syncData = Joi.object<OpenBankingSyncJob>({
  connection_id: Joi.string().guid().required(),
  context: contextRefSchema.required(),
});

/** How often the scheduler looks for connections due a sync: syncs spread over the interval instead of all at once. */
const SCHEDULER_EVERY_MS = 15 * 60_000;

/**
 * Syncs of Open Finance connections (`open-banking.sync`, queued by the callback, `POST .../sync` and the
 * scheduler) and the scheduler's run, which queues one sync per ACTIVE connection not synced for
 * OPEN_BANKING_SYNC_INTERVAL_MS (found through the index of sync times; one job per connection and due sync). A
 * connection syncs once at a time (its lease); a timeout or an institution down fails the job, which BullMQ retries
 * with backoff, and the connection stays due.
 */
export async function startOpenBankingSyncWorker(runtime: LedgerRuntime) {
  const worker = runtime.startWorker<OpenBankingSyncJob | Record<string, never>>(
    QUEUES.openBankingSync,
    async (job, token) => {
      const queue = runtime.queues.get(QUEUES.openBankingSync);
      if (job.name === SYNC_ALL_JOB) {
        await forEachConnectionDue(runtime.orm.em.fork(), runtime.config.OPEN_BANKING_SYNC_INTERVAL_MS, (due) =>
          queue
            .add(
              SYNC_JOB,
              { connection_id: due.id, context: due.context },
              // a connection still due at the next run (its sync queued, not finished) is not queued twice
              { jobId: `sync-${due.id}-${due.syncedAt.replace(/\D/g, '') || 'never'}` },
            )
            .then(() => undefined),
        );
        return;
      }
      const { value, error } = syncData.validate(job.data);
      if (error) throw new UnrecoverableError(`Sincronização inválida: ${error.message}`);
      try {
        return await syncConnection(
          runtime.orm.em.fork(),
          openFinanceFor(runtime),
          contextOfRef(value.context),
          value.connection_id,
          () => runtime.outbox?.kick(),
        );
      } catch (err) {
        if (!(err instanceof RetryLater)) throw err;
        // the institution's Retry-After: the job waits that long instead of calling sooner
        await job.moveToDelayed(Date.now() + err.delayMs, token);
        throw new DelayedError();
      }
    },
    2,
  );
  await runtime.queues
    .get(QUEUES.openBankingSync)
    .upsertJobScheduler(
      SYNC_SCHEDULER_ID,
      { every: Math.min(SCHEDULER_EVERY_MS, runtime.config.OPEN_BANKING_SYNC_INTERVAL_MS) },
      { name: SYNC_ALL_JOB, data: {} },
    );
  return worker;
}
