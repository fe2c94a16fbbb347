import { BillingImportClient } from '@finance/shared/clients/billing-import-client';
import { contextOfRef, contextRefSchema } from '@finance/shared/db/context-scope';
import { AppError } from '@finance/shared/errors/app-error';
import { InternalClient } from '@finance/shared/http/internal-client';
import { type ImportJob, type InvestmentsImported, QUEUES } from '@finance/shared/queue/catalogue';
import { type Job, QueueEvents, UnrecoverableError } from 'bullmq';
import Joi from 'joi';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import { backgroundJobState, updateBackgroundJob } from '../../domain/jobs/background-jobs.ts';
import { ImportRejected } from '../../domain/open-banking/import-payload.ts';
import { runImport } from '../../domain/open-banking/run-import.ts';

export const INVESTMENTS_IMPORTED_JOB = 'investments.imported';
/** How long an import waits for insights to store its investments before this attempt fails (and retries). */
const INVESTMENTS_WAIT_MS = 120_000;
const FAILED_MESSAGE = 'Falha ao processar a importação; envie-a novamente';

const jobData = Joi.object({
  background_job_id: Joi.string().guid().required(),
  context: contextRefSchema.required(),
});

const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/** Import jobs (job id = background job id); a rejected payload fails its job at once, with the reason. */
export function startImportWorker(runtime: LedgerRuntime) {
  const config = runtime.config;
  // built at the first job: the billing URL may be learned after start (test stacks start the ledger first)
  let billingImport: BillingImportClient | null = null;
  const billingImportClient = () => {
    billingImport ??= new BillingImportClient(new InternalClient(config.BILLING_URL, config.INTERNAL_SECRET));
    return billingImport;
  };
  const queueEvents = new QueueEvents(QUEUES.investmentSnapshots, {
    connection: runtime.workerRedis(),
    prefix: config.QUEUE_PREFIX,
  });
  queueEvents.on('error', (err) => runtime.logger.debug({ err: err.message }, 'queue events error'));

  const handOverInvestments = async (data: InvestmentsImported) => {
    // the fixed job id makes a retried import wait on the same hand-over instead of adding another
    const job = await runtime.queues
      .get(QUEUES.investmentSnapshots)
      .add(INVESTMENTS_IMPORTED_JOB, data, { jobId: `${data.background_job_id}-investments` });
    try {
      await job.waitUntilFinished(queueEvents, INVESTMENTS_WAIT_MS);
    } catch (err) {
      const failed = await job.isFailed().catch(() => false);
      if (failed) throw new ImportRejected(`Os investimentos não puderam ser gravados: ${(err as Error).message}`);
      throw err;
    }
  };

  const worker = runtime.startWorker<ImportJob>(
    QUEUES.imports,
    async (job) => {
      const { value, error } = jobData.validate(job.data, { allowUnknown: true });
      if (error) throw new UnrecoverableError(`Tarefa de importação inválida: ${error.message}`);
      const data = value as ImportJob;
      const em = runtime.orm.em.fork();
      const ctx = contextOfRef(data.context);
      const state = await backgroundJobState(em, ctx, data.background_job_id);
      if (!state) throw new UnrecoverableError('Tarefa de importação desconhecida neste contexto');
      if (state === 'completed' || state === 'failed') return;
      try {
        return await runImport(em, ctx, data.background_job_id, {
          billing: billingFor(runtime),
          billingImport: billingImportClient(),
          handOverInvestments,
          logoBase: config.BANK_LOGO_BASE_URL,
        });
      } catch (err) {
        const rejected = err instanceof ImportRejected || (err instanceof AppError && err.status < 500);
        if (rejected || isLastAttempt(job)) {
          const message = err instanceof ImportRejected ? err.message : FAILED_MESSAGE;
          await updateBackgroundJob(runtime.orm.em.fork(), data.background_job_id, { state: 'failed', error: message });
          if (rejected) throw new UnrecoverableError(message);
        }
        throw err;
      }
    },
    2,
  );
  return {
    close: async () => {
      await worker.close();
      await queueEvents.close();
    },
  };
}
