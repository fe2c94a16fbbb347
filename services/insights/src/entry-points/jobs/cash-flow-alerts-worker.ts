import { now } from '@finance/shared/clock';
import { type CashFlowAlertsJob, QUEUES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import { billingFor } from '../../billing-client.ts';
import type { InsightsRuntime } from '../../config.ts';
import { evaluateShortfalls } from '../../domain/cash-flow/shortfall-alerts.ts';
import { ledgerFor } from '../../ledger-client.ts';

export const CASH_FLOW_ALERTS_SCHEDULER_ID = 'cash-flow-alerts';

/**
 * Every minute: the forecasts whose inputs changed since (their watches due at once), and those whose context's day
 * turned; `at` (an ISO instant) overrides the moment the run acts at.
 */
export async function startCashFlowAlertsWorker(runtime: InsightsRuntime) {
  await runtime.queues
    .get(QUEUES.cashFlowAlerts)
    .upsertJobScheduler(
      CASH_FLOW_ALERTS_SCHEDULER_ID,
      { pattern: '* * * * *', tz: 'UTC' },
      { name: 'cash-flow-alerts', data: {} },
    );
  const ledger = ledgerFor(runtime);
  const billing = billingFor(runtime);
  return runtime.startWorker<CashFlowAlertsJob>(
    QUEUES.cashFlowAlerts,
    async (job) => {
      const given = job.data?.at;
      if (given !== undefined && (typeof given !== 'string' || Number.isNaN(Date.parse(given)))) {
        throw new UnrecoverableError('bad cash-flow alerts instant');
      }
      return evaluateShortfalls(
        runtime.orm.em.fork(),
        ledger,
        billing,
        given ? new Date(given) : now(),
        (context, err) => runtime.logger.warn({ err, context }, 'cash-flow forecast failed; its alerts stay due'),
      );
    },
    1,
  );
}
