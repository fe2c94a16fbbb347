import { parseCalendarDate } from '@finance/shared/calendar';
import { now } from '@finance/shared/clock';
import { type GoalReminderJob, QUEUES } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { notifyGoalReminders } from '../../domain/goals/notify-goal-reminders.ts';

export const GOAL_REMINDERS_SCHEDULER_ID = 'daily-goal-reminders';

/**
 * Hourly, so each context's reminders go out within the hour after its local midnight; a job without
 * `today` acts as each context's current day in its time zone.
 */
export async function startGoalRemindersWorker(runtime: InsightsRuntime) {
  await runtime.queues
    .get(QUEUES.goalReminders)
    .upsertJobScheduler(
      GOAL_REMINDERS_SCHEDULER_ID,
      { pattern: '15 * * * *', tz: 'UTC' },
      { name: 'goal-reminders', data: {} },
    );
  return runtime.startWorker<GoalReminderJob>(
    QUEUES.goalReminders,
    async (job) => {
      const given = job.data?.today;
      if (given !== undefined && parseCalendarDate(given) !== given) {
        throw new UnrecoverableError('bad goal reminder date');
      }
      return notifyGoalReminders(runtime.orm.em.fork(), given ?? now());
    },
    1,
  );
}
