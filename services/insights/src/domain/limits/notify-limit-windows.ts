import { addDays, type CalendarDate } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import { todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { FIRST_LIMIT, limitsDue, setNextChecks } from '../../data-access/spending-limit-repository.ts';
import { limitViews } from './limit-views.ts';
import { limitAlerts } from './spending-alerts.ts';

const BATCH = 500;

/**
 * The time-driven half of the limit warnings: once a day per limit, its current window in its context's day
 * (`at` read in the context's zone; a calendar date acts as today everywhere), spending up to that day, and
 * the warnings it calls for. A window whose entries were recorded in advance (a recurrence) warns on the
 * day it starts; the dedupe key makes every rerun add nothing. Each limit keeps the instant of its next check (its
 * context's next midnight, indexed), so an hourly run reads the limits whose day has come, not every limit.
 */
export async function notifyLimitWindows(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  at: Date | CalendarDate,
): Promise<{ notified: number }> {
  let notified = 0;
  // a calendar date is today everywhere: due by the last zone's midnight after it
  const until = typeof at === 'string' ? `${addDays(at, 1)}T12:00:00Z` : at.toISOString();
  let cursor = FIRST_LIMIT;
  for (;;) {
    const batch = await limitsDue(em.fork(), until, cursor, BATCH);
    if (batch.length === 0) return { notified };
    const groups = new Map<string, { today: CalendarDate; limits: SpendingLimit[] }>();
    for (const { limit, timeZone } of batch) {
      const today = typeof at === 'string' ? at : todayIn(timeZone, at);
      const key = `${limit.userId}:${limit.profileId ?? ''}`;
      const group = groups.get(key) ?? { today, limits: [] };
      group.limits.push(limit);
      groups.set(key, group);
    }
    for (const { today, limits } of groups.values()) {
      const ctx: CallerContext = {
        userId: limits[0].userId,
        profileId: limits[0].profileId ?? null,
        business: false,
        keyId: null,
      };
      const views = await limitViews(ledger, ctx, limits, today);
      const alerts = views.flatMap((view, index) =>
        limitAlerts(limits[index], view.current_window, view.current_window.spent),
      );
      notified += await insertNotifications(em.fork(), alerts);
      await setNextChecks(
        em.fork(),
        limits.map((limit) => ({ id: limit.id, day: addDays(today, 1) })),
      );
    }
    const last = batch[batch.length - 1];
    cursor = { at: last.checkAt, id: last.limit.id };
  }
}
