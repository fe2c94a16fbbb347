import { contextRefSchema } from '@finance/shared/db/context-scope';
import { type CardLedgerSyncJob, QUEUES } from '@finance/shared/queue/catalogue';
import { type Job, UnrecoverableError } from 'bullmq';
import Joi from 'joi';
import type { BillingRuntime } from '../../config.ts';
import { syncCardWithLedger } from '../../domain/bills/change-closing-date.ts';
import { ledgerFor } from '../../ledger-client.ts';

const KINDS = ['rebill', 'delete'] as const;

const jobData = Joi.object({
  context: contextRefSchema.required(),
  credit_card_id: Joi.string().guid().required(),
  calendar_version: Joi.number().integer().min(0).required(),
  first_month: Joi.string().pattern(/^\d{4}-\d{2}-01$/),
}).unknown(true);

/**
 * A card change's effect on the ledger, recorded in billing's outbox with the change: the request also applies
 * it right after its commit, so this job usually finds it done (the ledger's endpoints are idempotent by
 * calendar version) and only matters when that call failed or the process died first.
 */
export function startCardLedgerSyncWorker(runtime: BillingRuntime) {
  return runtime.startWorker(
    QUEUES.cardLedgerSync,
    async (job: Job<CardLedgerSyncJob>) => {
      const kind = KINDS.find((name) => name === job.name);
      const { error, value } = jobData.validate(job.data);
      if (!kind || error) throw new UnrecoverableError('Sincronização de cartão inválida');
      return { outcome: await syncCardWithLedger(runtime.orm.em.fork(), ledgerFor(runtime), kind, value) };
    },
    1,
  );
}
