import { type InvestmentYieldsJob, QUEUES } from '@finance/shared/queue/catalogue';
import type { InsightsRuntime } from '../../config.ts';
import { materializeDailyYields } from '../../domain/investments/materialize-yields.ts';

export const INVESTMENT_YIELDS_SCHEDULER_ID = 'daily-investment-yields';

/** Daily at 04:00 UTC, after the night's imports: materializes the per-day position yields still missing. */
export async function startInvestmentYieldsWorker(runtime: InsightsRuntime) {
  await runtime.queues
    .get(QUEUES.investmentYields)
    .upsertJobScheduler(
      INVESTMENT_YIELDS_SCHEDULER_ID,
      { pattern: '0 4 * * *', tz: 'UTC' },
      { name: 'investment-yields', data: {} },
    );
  return runtime.startWorker<InvestmentYieldsJob>(
    QUEUES.investmentYields,
    () => materializeDailyYields(runtime.orm.em.fork()),
    1,
  );
}
