import type { CalendarDate } from '@finance/shared/calendar';
import { now } from '@finance/shared/clock';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyRemindersDue } from '../../data-access/goal-repository.ts';

/**
 * Notifies every reminder due this month and not yet notified for it: due on the day of its start_date
 * (clamped to the month end), between start_date and end_date, by the day of the goal's context (`at` read
 * in the context's time zone, so a reminder turns at local midnight; a calendar date acts as today for every
 * context). A late run still notifies the month's reminder (catch-up); a second run the same month finds
 * `last_notification` set and the dedupe key taken. One statement: notifications inserted, their
 * `goal.reminder` events recorded and `last_notification` stamped together.
 */
export async function notifyGoalReminders(em: EntityManager, at: Date | CalendarDate): Promise<{ notified: number }> {
  const given = typeof at === 'string' ? at : null;
  const instant = typeof at === 'string' ? now() : at;
  const notified = await notifyRemindersDue(em, given, instant.toISOString());
  return { notified };
}
