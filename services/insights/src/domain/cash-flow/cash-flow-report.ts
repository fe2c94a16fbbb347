import { addDays, type CalendarDate, compare, daysBetween, occurrenceDate } from '@finance/shared/calendar';
import type { BillingInsightsClient } from '@finance/shared/clients/billing-insights-client';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { type CashFlowReportQuery, MAX_FORECAST_DAYS } from '@finance/shared/contracts/insights/cash-flow';
import { invalidField } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { reminderPlans } from '../../data-access/goal-repository.ts';
import { contextToday } from '../context-today.ts';
import { type PlannedContribution, projectCashFlow } from './project-cash-flow.ts';

/** Days a forecast shows when `end_date` is not given. */
const DEFAULT_DAYS = 30;

/** Each goal reminder's monthly contributions dated from `today` through `end` (on its start day, within its dates). */
async function plannedContributions(
  em: EntityManager,
  ctx: CallerContext,
  today: CalendarDate,
  end: CalendarDate,
): Promise<PlannedContribution[]> {
  const contributions: PlannedContribution[] = [];
  for (const plan of await reminderPlans(em, ctx)) {
    const last = plan.end_date && compare(plan.end_date, end) < 0 ? plan.end_date : end;
    for (let index = 0; ; index++) {
      const date = occurrenceDate(plan.start_date, 'MONTHLY', index);
      if (compare(date, last) > 0) break;
      if (compare(date, today) >= 0) {
        contributions.push({ goal_id: plan.goal_id, title: plan.title, date, amount: Number(plan.amount) });
      }
    }
  }
  return contributions;
}

/**
 * The forecast of `ctx` from `today` through `end` (reported from `start`): the ledger's balances, entries and
 * unwritten occurrences, billing's bills (card occurrences placed in them), the goals' contributions, projected.
 */
export async function forecast(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  ctx: CallerContext,
  period: { today: CalendarDate; start: CalendarDate; end: CalendarDate; accountId?: string },
) {
  const { today, start, end, accountId } = period;
  const inputs = await ledger.cashFlowInputs(ctx, {
    today,
    end_date: end,
    ...(accountId ? { account_id: accountId } : {}),
  });
  const purchases = inputs.occurrences.flatMap((occurrence) =>
    occurrence.credit_card_id
      ? [{ credit_card_id: occurrence.credit_card_id, date: occurrence.date, amount: -occurrence.amount }]
      : [],
  );
  const { bills } = await billing.billsAhead(ctx, { until: end, purchases });
  return projectCashFlow({
    today,
    start,
    end,
    threshold: inputs.threshold,
    accounts: inputs.accounts,
    entries: inputs.entries,
    occurrences: inputs.occurrences,
    bills,
    contributions: await plannedContributions(em, ctx, today, end),
    byCostCenter: ctx.profileId !== null,
  });
}

/** GET /v1/reports/cash-flow: the period checked against the context's today, then the forecast. */
export async function cashFlowReport(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  ctx: CallerContext,
  query: CashFlowReportQuery,
) {
  const today = await contextToday(ledger, ctx);
  const start = query.start_date ?? today;
  if (compare(start, today) < 0) throw invalidField('start_date', 'start_date não pode ser anterior a hoje');
  const end = query.end_date ?? addDays(start, DEFAULT_DAYS);
  if (compare(end, start) < 0) throw invalidField('end_date', 'end_date não pode ser anterior a start_date');
  if (daysBetween(today, end) > MAX_FORECAST_DAYS) {
    throw invalidField('end_date', `end_date pode estar no máximo ${MAX_FORECAST_DAYS} dias depois de hoje`);
  }
  return forecast(em, ledger, billing, ctx, { today, start, end, accountId: query.account_id });
}
