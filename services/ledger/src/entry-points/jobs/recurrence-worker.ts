import { todayUtc } from '@finance/shared/calendar';
import { now } from '@finance/shared/clock';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import { extendRecurrences } from '../../domain/transactions/extend-recurrences.ts';

const JOB = 'extend-recurrences';

/**
 * Hourly scheduler (each context's horizon moves at its own local midnight; a run that finds nothing new
 * writes nothing) plus a catch-up run at start, so a week of downtime is made up at once.
 */
export async function startRecurrenceWorker(runtime: LedgerRuntime) {
  const worker = runtime.startWorker(
    QUEUES.recurrence,
    () => extendRecurrences(runtime.orm.em.fork(), now(), 200, billingFor(runtime)),
    1,
  );
  const queue = runtime.queues.get(QUEUES.recurrence);
  await queue.upsertJobScheduler('recurrence-horizon', { pattern: '5 * * * *', tz: 'UTC' }, { name: JOB, data: {} });
  // one catch-up per day and process start; the job id dedupes replicas starting together
  await queue.add(JOB, {}, { jobId: `catch-up-${todayUtc()}` });
  return worker;
}
