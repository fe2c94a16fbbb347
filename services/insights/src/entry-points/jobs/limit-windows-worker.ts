import { parseCalendarDate } from '@finance/shared/calendar';
import { now } from '@finance/shared/clock';
import { type LimitWindowsJob, QUEUES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { notifyLimitWindows } from '../../domain/limits/notify-limit-windows.ts';
import { ledgerFor } from '../../ledger-client.ts';

export const LIMIT_WINDOWS_SCHEDULER_ID = 'hourly-limit-windows';

/** Hourly, so each context's new day is checked within the hour after its local midnight; `today` overrides. */
export async function startLimitWindowsWorker(runtime: InsightsRuntime) {
  await runtime.queues
    .get(QUEUES.limitWindows)
    .upsertJobScheduler(
      LIMIT_WINDOWS_SCHEDULER_ID,
      { pattern: '10 * * * *', tz: 'UTC' },
      { name: 'limit-windows', data: {} },
    );
  const ledger = ledgerFor(runtime);
  return runtime.startWorker<LimitWindowsJob>(
    QUEUES.limitWindows,
    async (job) => {
      const given = job.data?.today;
      if (given !== undefined && parseCalendarDate(given) !== given) {
        throw new UnrecoverableError('bad limit window date');
      }
      return notifyLimitWindows(runtime.orm.em.fork(), ledger, given ?? now());
    },
    1,
  );
}
