import { AsyncLocalStorage } from 'node:async_hooks';

/** What the process is serving in the current async context: a request, or a queue's job. */
export interface Activity {
  req_id?: string;
  queue?: string;
  job_id?: string;
}

const activities = new AsyncLocalStorage<Activity>();

/** Runs `work` as part of `activity`: timers and promises it starts carry it (a fault's log line names it). */
export function withActivity<T>(activity: Activity, work: () => T): T {
  return activities.run(activity, work);
}

/** The request or job the current code runs for, when known. */
export function currentActivity(): Activity | undefined {
  return activities.getStore();
}
