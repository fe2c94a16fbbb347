import { QUEUES, type RecategorizationJob } from '@finance/shared/queue/catalogue';
import { type Job, UnrecoverableError } from 'bullmq';
import type { LedgerRuntime } from '../../config.ts';
import { updateBackgroundJob } from '../../domain/jobs/background-jobs.ts';
import { RunNotFound, recategorizeHistory } from '../../domain/rules/recategorize-history.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Applies rules to history (apply_to_existing); progress goes to the background job and to BullMQ. */
export function startRecategorizationWorker(runtime: LedgerRuntime) {
  const lockMs = runtime.config.RECATEGORIZATION_LOCK_MS;
  return runtime.startWorker<RecategorizationJob>(
    QUEUES.recategorization,
    async (job: Job<RecategorizationJob>) => {
      const jobId = job.data?.job_id;
      if (typeof jobId !== 'string' || !UUID.test(jobId)) throw new UnrecoverableError('job_id inválido');
      try {
        return await recategorizeHistory(runtime.orm.em.fork(), jobId, {
          onProgress: (percent) => job.updateProgress(percent),
        });
      } catch (caught) {
        const err = caught instanceof RunNotFound ? new UnrecoverableError(caught.message) : caught;
        const last = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        // the client sees the failure on GET /v1/jobs/{id} once no retry is left
        if (last) {
          await updateBackgroundJob(runtime.orm.em.fork(), jobId, {
            state: 'failed',
            error: 'Falha ao recategorizar as transações existentes',
          }).catch(() => undefined);
        }
        throw err;
      }
    },
    1,
    // a killed worker's run waits for its lock to lapse, then the next stalled check hands it to another
    { lockDuration: lockMs, stalledInterval: lockMs },
  );
}
