import { todayUtc } from '@finance/shared/calendar';
import { type BillRolloverJob, QUEUES } from '@finance/shared/queue/catalogue';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import { UnrecoverableError } from 'bullmq';
import { announceBills } from '../../domain/bills/announce-bills.ts';
import { rollOverBills } from '../../domain/bills/roll-over-bills.ts';
import { ledgerFor } from '../../ledger-client.ts';

export const ROLLOVER_SCHEDULER_ID = 'daily-bill-rollover';

/** Daily at 03:00 UTC: announces bills closed or overdue, then carries remainders; a late run catches up. */
export async function startBillRolloverWorker(runtime: ServiceRuntime) {
  await runtime.queues
    .get(QUEUES.billRollover)
    .upsertJobScheduler(
      ROLLOVER_SCHEDULER_ID,
      { pattern: '0 3 * * *', tz: 'UTC' },
      { name: 'bill-rollover', data: {} },
    );
  return runtime.startWorker<BillRolloverJob>(
    QUEUES.billRollover,
    async (job) => {
      const date = job.data?.date;
      if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UnrecoverableError('bad rollover date');
      const today = date ?? todayUtc();
      // closed and overdue are noticed before the rollover carries what is owed
      const announced = await announceBills(runtime.orm.em.fork(), ledgerFor(runtime), today);
      return { ...(await rollOverBills(runtime.orm.em.fork(), ledgerFor(runtime), today)), announced };
    },
    1,
  );
}
