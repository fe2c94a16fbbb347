import { parseCalendarDate, todayUtc } from '@finance/shared/calendar';
import { type GoalReminderJob, QUEUES } from '@finance/shared/queue/catalogue';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import { UnrecoverableError } from 'bullmq';
import { notifyGoalReminders } from '../../domain/goals/notify-goal-reminders.ts';

export const GOAL_REMINDERS_SCHEDULER_ID = 'daily-goal-reminders';

/** Daily at 09:00 UTC; a job without `today` acts as the current UTC day. */
export async function startGoalRemindersWorker(runtime: ServiceRuntime) {
  await runtime.queues
    .get(QUEUES.goalReminders)
    .upsertJobScheduler(
      GOAL_REMINDERS_SCHEDULER_ID,
      { pattern: '0 9 * * *', tz: 'UTC' },
      { name: 'goal-reminders', data: {} },
    );
  return runtime.startWorker<GoalReminderJob>(
    QUEUES.goalReminders,
    async (job) => {
      const given = job.data?.today;
      if (given !== undefined && parseCalendarDate(given) !== given) {
        throw new UnrecoverableError('bad goal reminder date');
      }
      return notifyGoalReminders(runtime.orm.em.fork(), given ?? todayUtc());
    },
    1,
  );
}
