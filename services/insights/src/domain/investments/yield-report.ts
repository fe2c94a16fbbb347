import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { YieldReportQuery } from '@finance/shared/contracts/insights/investments';
import type { EntityManager } from '@mikro-orm/postgresql';
import { snapshotDays, snapshotsInWindow } from '../../data-access/investment-reads.ts';
import { contextToday } from '../context-today.ts';
import { computeYieldReport, type YieldReport } from '../yield-periods.ts';
import { withSnapshotDays, yieldWindowStart } from './yield-window.ts';

/**
 * GET /v1/investments/yield (docs/decisions.md §10) from stored snapshots, never a live bank query: one query for the
 * snapshot days, one for the snapshots from the earliest day a period compares (with the materialized daily yields
 * standing in for older history), fed to computeYieldReport.
 */
export async function investmentYieldReport(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  query: YieldReportQuery,
): Promise<YieldReport> {
  // the default reference date is the context's today (its time zone)
  const referenceDate = query.date ?? (await contextToday(ledger, ctx));
  const days = await snapshotDays(em, ctx, referenceDate);
  const snapshots = days.length === 0 ? [] : await snapshotsInWindow(em, ctx, yieldWindowStart(days), referenceDate);
  return withSnapshotDays(computeYieldReport({ snapshots, referenceDate, limit: query.limit }), days);
}
