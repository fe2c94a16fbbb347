import { type InvestmentsImported, QUEUES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { parseInvestmentsImported } from '../../domain/investments/investments-payload.ts';
import { storeInvestments } from '../../domain/investments/store-investments.ts';

export const INVESTMENTS_IMPORTED_JOB = 'investments.imported';

/** Stores the investments an open-banking import hands over; the import's job waits for this one to complete. */
export function startInvestmentSnapshotsWorker(runtime: InsightsRuntime) {
  return runtime.startWorker<InvestmentsImported>(QUEUES.investmentSnapshots, async (job) => {
    if (job.name !== INVESTMENTS_IMPORTED_JOB) throw new UnrecoverableError(`job desconhecido: ${job.name}`);
    const input = parseInvestmentsImported(job.data);
    if ('error' in input) throw new UnrecoverableError(input.error);
    return storeInvestments(runtime.orm.em.fork(), input);
  });
}
