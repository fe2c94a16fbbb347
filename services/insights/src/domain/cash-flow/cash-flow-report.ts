import { addDays, type CalendarDate, compare, daysBetween, occurrenceDate, todayUtc } from '@finance/shared/calendar';
import type { BillingInsightsClient } from '@finance/shared/clients/billing-insights-client';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { type CashFlowReportQuery, MAX_FORECAST_DAYS } from '@finance/shared/contracts/insights/cash-flow';
import type { CashFlowInputs, CashFlowQuery } from '@finance/shared/contracts/internal/ledger-for-insights';
import { invalidField } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ReminderPlanRow, reminderPlans } from '../../data-access/goal-repository.ts';
import { type PlannedContribution, projectCashFlow } from './project-cash-flow.ts';

/** Days a forecast shows when `end_date` is not given. */
const DEFAULT_DAYS = 30;

/** Each goal reminder's monthly contributions dated from `today` through `end` (on its start day, within its dates). */
function plannedContributions(plans: ReminderPlanRow[], today: CalendarDate, end: CalendarDate): PlannedContribution[] {
  const contributions: PlannedContribution[] = [];
  for (const plan of plans) {
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
 * The forecast of `ctx` through the last day the ledger read (reported from `start`, default its today): the
 * ledger's balances, entries and unwritten occurrences and the goals' contributions (`query` reads them, the goals
 * side by side), then billing's bills with the card occurrences placed in them, projected. `check` sees the period
 * before billing is asked.
 */
export async function forecast(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  ctx: CallerContext,
  query: CashFlowQuery & { start?: CalendarDate },
  check: (today: CalendarDate, start: CalendarDate, end: CalendarDate) => void = () => {},
) {
  const { start: asked, ...read } = query;
  const [inputs, plans]: [CashFlowInputs, ReminderPlanRow[]] = await Promise.all([
    ledger.cashFlowInputs(ctx, read),
    reminderPlans(em, ctx),
  ]);
  const { today, end_date: end } = inputs;
  const start = asked ?? today;
  check(today, start, end);
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
    contributions: plannedContributions(plans, today, end),
    byCostCenter: ctx.profileId !== null,
  });
}

/**
 * GET /v1/reports/cash-flow: the period checked against the context's today (the ledger's, read with the inputs; a
 * period beyond any zone's reach is refused before anything is read), then the forecast.
 */
export async function cashFlowReport(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  ctx: CallerContext,
  query: CashFlowReportQuery,
) {
  const tooFar = () =>
    invalidField('end_date', `end_date pode estar no máximo ${MAX_FORECAST_DAYS} dias depois de hoje`);
  const end = query.end_date ?? (query.start_date ? addDays(query.start_date, DEFAULT_DAYS) : undefined);
  // no zone's today is more than a day ahead of UTC's
  if (end && daysBetween(todayUtc(), end) > MAX_FORECAST_DAYS + 1) throw tooFar();
  return forecast(
    em,
    ledger,
    billing,
    ctx,
    {
      ...(end ? { end_date: end } : { days: DEFAULT_DAYS }),
      ...(query.start_date ? { start: query.start_date } : {}),
      ...(query.account_id ? { account_id: query.account_id } : {}),
    },
    (today, start, last) => {
      if (compare(start, today) < 0) throw invalidField('start_date', 'start_date não pode ser anterior a hoje');
      if (compare(last, start) < 0) throw invalidField('end_date', 'end_date não pode ser anterior a start_date');
      if (daysBetween(today, last) > MAX_FORECAST_DAYS) throw tooFar();
    },
  );
}
