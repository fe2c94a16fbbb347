import { contextOfRef, contextRefSchema } from '@finance/shared/db/context-scope';
import { type CardMovesJob, QUEUES } from '@finance/shared/queue/catalogue';
import { type Job, UnrecoverableError } from 'bullmq';
import Joi from 'joi';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import { moveCardsInBilling } from '../../domain/accounts/deleted-account-cards.ts';

const jobData = Joi.object({
  context: contextRefSchema.required(),
  from_account_id: Joi.string().guid().required(),
  to_account_id: Joi.string().guid().required(),
}).unknown(true);

/** Cards of deleted accounts move in billing after the deletion committed (recorded in its outbox). */
export function startCardMovesWorker(runtime: LedgerRuntime) {
  return runtime.startWorker(
    QUEUES.cardMoves,
    async (job: Job<CardMovesJob>) => {
      const { error, value } = jobData.validate(job.data);
      if (error) throw new UnrecoverableError('Movimentação de cartões inválida');
      const ctx = contextOfRef(value.context);
      const moved = await moveCardsInBilling(billingFor(runtime), ctx, value.from_account_id, value.to_account_id);
      return { moved: moved.length };
    },
    1,
  );
}
