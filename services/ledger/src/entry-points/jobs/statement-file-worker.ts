import { contextOfRef, contextRefSchema } from '@finance/shared/db/context-scope';
import { AppError } from '@finance/shared/errors/app-error';
import { QUEUES, type StatementFileJob } from '@finance/shared/queue/catalogue';
import { type Job, UnrecoverableError } from 'bullmq';
import Joi from 'joi';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import { backgroundJobState } from '../../domain/jobs/background-jobs.ts';
import { ImportRejected } from '../../domain/open-banking/import-payload.ts';
import { failStatementImport, runStatementImport } from '../../domain/statements/run-statement-import.ts';

const FAILED_MESSAGE = 'Falha ao processar a importação; envie-a novamente';

const jobData = Joi.object<StatementFileJob>({
  background_job_id: Joi.string().guid().required(),
  context: contextRefSchema.required(),
});

const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * Statement files' imports (job id = background job id), one at a time per process: the worker role that reads
 * files (worker group `ledger.statement-files`), apart from the API's requests. A file that cannot be read fails
 * its job at once, naming the line; a killed worker's job is taken over once its lock lapses and goes on from its
 * last batch.
 */
export function startStatementFileWorker(runtime: LedgerRuntime) {
  const lockMs = runtime.config.STATEMENT_FILES_LOCK_MS;
  return runtime.startWorker<StatementFileJob>(
    QUEUES.statementFiles,
    async (job) => {
      const { value, error } = jobData.validate(job.data, { allowUnknown: true });
      if (error) throw new UnrecoverableError(`Tarefa de importação inválida: ${error.message}`);
      const em = runtime.orm.em.fork();
      const ctx = contextOfRef(value.context);
      const id = value.background_job_id;
      if (!(await backgroundJobState(em, ctx, id))) {
        throw new UnrecoverableError('Tarefa de importação desconhecida neste contexto');
      }
      try {
        return await runStatementImport(em, ctx, id, billingFor(runtime));
      } catch (err) {
        const rejected = err instanceof ImportRejected || (err instanceof AppError && err.status < 500);
        if (rejected || isLastAttempt(job)) {
          const message = err instanceof ImportRejected ? err.message : FAILED_MESSAGE;
          await failStatementImport(runtime.orm.em.fork(), ctx, id, message);
          if (rejected) throw new UnrecoverableError(message);
        }
        throw err;
      }
    },
    1,
    // a killed worker's job waits for its lock to lapse, then the next stalled check hands it to another
    { lockDuration: lockMs, stalledInterval: lockMs },
  );
}
