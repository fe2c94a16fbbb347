import { contextOfRef, contextRefSchema } from '@finance/shared/db/context-scope';
import { type OpenBankingSyncJob, QUEUES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import Joi from 'joi';
import type { LedgerRuntime } from '../../config.ts';
import { listSyncableConnections } from '../../domain/open-banking/connections.ts';
import { SYNC_JOB, syncConnection } from '../../domain/open-banking/sync-connection.ts';
import { openFinanceFor } from '../../open-finance.ts';

export const SYNC_SCHEDULER_ID = 'open-banking-sync-all';
const SYNC_ALL_JOB = 'open-banking.sync-all';

const syncData = Joi.object<OpenBankingSyncJob>({
  connection_id: Joi.string().guid().required(),
  context: contextRefSchema.required(),
});

/**
 * Syncs of Open Finance connections (`open-banking.sync`, queued by the callback, `POST .../sync` and the
 * scheduler) and the scheduler's run every OPEN_BANKING_SYNC_INTERVAL_MS, which queues one sync per ACTIVE
 * connection. A connection syncs once at a time (its lease); a timeout or an institution down fails the job, which
 * BullMQ retries with backoff.
 */
export async function startOpenBankingSyncWorker(runtime: LedgerRuntime) {
  const worker = runtime.startWorker<OpenBankingSyncJob | Record<string, never>>(
    QUEUES.openBankingSync,
    async (job) => {
      const queue = runtime.queues.get(QUEUES.openBankingSync);
      if (job.name === SYNC_ALL_JOB) {
        for (const connection of await listSyncableConnections(runtime.orm.em.fork())) {
          await queue.add(SYNC_JOB, { connection_id: connection.id, context: connection.context });
        }
        return;
      }
      const { value, error } = syncData.validate(job.data);
      if (error) throw new UnrecoverableError(`Sincronização inválida: ${error.message}`);
      return syncConnection(
        runtime.orm.em.fork(),
        openFinanceFor(runtime),
        contextOfRef(value.context),
        value.connection_id,
        () => runtime.outbox?.kick(),
      );
    },
    2,
  );
  await runtime.queues
    .get(QUEUES.openBankingSync)
    .upsertJobScheduler(
      SYNC_SCHEDULER_ID,
      { every: runtime.config.OPEN_BANKING_SYNC_INTERVAL_MS },
      { name: SYNC_ALL_JOB, data: {} },
    );
  return worker;
}
