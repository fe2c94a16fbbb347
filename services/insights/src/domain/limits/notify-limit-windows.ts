import type { CalendarDate } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import { todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SpendingLimit } from '../../data-access/entities/spending-limit.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { limitsWithZones } from '../../data-access/spending-limit-repository.ts';
import { limitViews } from './limit-views.ts';
import { limitAlerts } from './spending-alerts.ts';

const BATCH = 500;

/**
 * The time-driven half of the limit warnings: for every limit, its current window in its context's day
 * (`at` read in the context's zone; a calendar date acts as today everywhere), spending up to that day, and
 * the warnings it calls for. A window whose entries were recorded in advance (a recurrence) warns on the
 * day it starts; the dedupe key makes every rerun add nothing.
 */
export async function notifyLimitWindows(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  at: Date | CalendarDate,
): Promise<{ notified: number }> {
  let notified = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await limitsWithZones(em.fork(), after, BATCH);
    if (batch.length === 0) return { notified };
    const groups = new Map<string, { today: CalendarDate; limits: SpendingLimit[] }>();
    for (const { limit, timeZone } of batch) {
      const key = `${limit.userId}:${limit.profileId ?? ''}`;
      const group = groups.get(key) ?? { today: typeof at === 'string' ? at : todayIn(timeZone, at), limits: [] };
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
    }
    after = batch[batch.length - 1].limit.id;
  }
}
