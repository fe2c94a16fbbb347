import { addDays } from '@finance/shared/calendar';
import type { BillingInsightsClient } from '@finance/shared/clients/billing-insights-client';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { SHORTFALL_HORIZON_DAYS } from '@finance/shared/contracts/insights/cash-flow';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type AlertRow,
  type DueWatch,
  lockedAlerts,
  saveAlerts,
  scheduleWatch,
  watchesDue,
} from '../../data-access/cash-flow-watches.ts';
import { insertNotifications, type NewNotification } from '../../data-access/notification-writes.ts';
import { day, reais } from '../notifications/notification-text.ts';
import { forecast } from './cash-flow-report.ts';
import type { CashFlowForecast } from './project-cash-flow.ts';

const BATCH = 500;
const FIRST = { at: '-infinity', context: '00000000-0000-0000-0000-000000000000' };

/**
 * An account's episode (docs/decisions.md §10, cash flow): it starts the first time the forecast sees the account end a
 * day below the threshold, with one notification; it lasts while the forecast still sees one, and ends when it sees
 * none, so a later fall is a new episode with a new notification. The states to keep and the notifications due.
 */
export function shortfallAlerts(
  ctx: CallerContext,
  result: CashFlowForecast,
  previous: AlertRow[],
): { rows: Array<AlertRow & { shortfall_date: string | null }>; notifications: NewNotification[] } {
  const before = new Map(previous.map((row) => [row.account_id, row]));
  const notifications: NewNotification[] = [];
  const rows = result.accounts.map((account) => {
    const was = before.get(account.account_id) ?? { account_id: account.account_id, short: false, episode: 0 };
    before.delete(account.account_id);
    const date = account.first_shortfall_date;
    if (date === null)
      return { account_id: account.account_id, short: false, episode: was.episode, shortfall_date: null };
    if (was.short) return { ...was, shortfall_date: date };
    const episode = was.episode + 1;
    const balance = account.balances[result.days.findIndex((entry) => entry.date === date)] ?? account.balance;
    notifications.push({
      userId: ctx.userId,
      profileId: ctx.profileId,
      kind: 'CASH_FLOW_SHORTFALL',
      title: `Saldo previsto abaixo de ${reais(result.threshold)} em "${account.name}"`,
      message: `A previsão da conta "${account.name}" fica em ${reais(balance)} em ${day(date)}, abaixo de ${reais(result.threshold)}.`,
      data: { account_id: account.account_id, shortfall_date: date, balance, threshold: result.threshold },
      dedupeKey: `cash_flow:${account.account_id}:${episode}`,
    });
    return { account_id: account.account_id, short: true, episode, shortfall_date: date };
  });
  // an account gone from the forecast (deleted) ends its episode
  for (const gone of before.values()) rows.push({ ...gone, short: false, shortfall_date: null });
  return { rows, notifications };
}

/**
 * One context's alerts: its forecast over the next 90 days from its today (the ledger's; read with no transaction
 * open), then its accounts'
 * episodes, their notifications (and `cash_flow.shortfall` events) and its next check (its next midnight) in one
 * transaction. Answers the notifications added.
 */
async function evaluateWatch(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  watch: DueWatch,
): Promise<number> {
  const ctx: CallerContext = { userId: watch.user_id, profileId: watch.profile_id, business: false, keyId: null };
  const result = await forecast(em.fork(), ledger, billing, ctx, { days: SHORTFALL_HORIZON_DAYS - 1 });
  return em.fork().transactional(async (tx) => {
    const { rows, notifications } = shortfallAlerts(ctx, result, await lockedAlerts(tx, ctx));
    await saveAlerts(tx, ctx, rows);
    const notified = await insertNotifications(tx, notifications);
    await scheduleWatch(tx, ctx, watch.marks, addDays(result.today, 1));
    return notified;
  });
}

/**
 * The scheduled half of the alerts: every watch due by `at` (an input changed, or its context's day turned), found
 * through the index of check instants, in batches; a context whose forecast fails is told to `failed` and stays due
 * for the next run, the others go on.
 */
export async function evaluateShortfalls(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  billing: BillingInsightsClient,
  at: Date,
  failed: (contextId: string, error: unknown) => void,
): Promise<{ evaluated: number; notified: number; failed: number }> {
  const totals = { evaluated: 0, notified: 0, failed: 0 };
  let cursor = FIRST;
  for (;;) {
    const batch = await watchesDue(em.fork(), at.toISOString(), cursor, BATCH);
    for (const watch of batch) {
      try {
        totals.notified += await evaluateWatch(em, ledger, billing, watch);
        totals.evaluated += 1;
      } catch (error) {
        failed(watch.context_id, error);
        totals.failed += 1;
      }
    }
    if (batch.length < BATCH) return totals;
    const last = batch[batch.length - 1];
    cursor = { at: last.check_at, context: last.context_id };
  }
}
