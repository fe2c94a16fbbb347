import { now } from '@finance/shared/clock';
import { type BillRolloverJob, QUEUES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import type { BillingRuntime } from '../../config.ts';
import { announceBills } from '../../domain/bills/announce-bills.ts';
import { rollOverBills } from '../../domain/bills/roll-over-bills.ts';
import { ledgerFor } from '../../ledger-client.ts';

export const ROLLOVER_SCHEDULER_ID = 'daily-bill-rollover';

/**
 * Hourly, so each context's bills are announced (closed, overdue) and rolled over within the hour after its
 * local midnight; the job carries no date, so a late run catches up on every bill past due.
 */
export async function startBillRolloverWorker(runtime: BillingRuntime) {
  await runtime.queues
    .get(QUEUES.billRollover)
    .upsertJobScheduler(
      ROLLOVER_SCHEDULER_ID,
      { pattern: '20 * * * *', tz: 'UTC' },
      { name: 'bill-rollover', data: {} },
    );
  return runtime.startWorker<BillRolloverJob>(
    QUEUES.billRollover,
    async (job) => {
      const date = job.data?.date;
      if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UnrecoverableError('bad rollover date');
      const at = date ?? now();
      // closed and overdue are noticed before the rollover carries what is owed
      const announced = await announceBills(runtime.orm.em.fork(), ledgerFor(runtime), at);
      return { ...(await rollOverBills(runtime.orm.em.fork(), ledgerFor(runtime), at)), announced };
    },
    1,
  );
}
