/** The longest pause between two reads of a job a command waits on. */
export const POLL_MS = 100;
/** The shortest: a job about to finish is read again this soon at the earliest. */
export const MIN_POLL_MS = 10;

/**
 * How long to wait before reading a job again: the job's expected time left (from its progress so far, as if it
 * kept its pace) halved, within [MIN_POLL_MS, POLL_MS]. A waiting command then answers a finished job within a
 * few milliseconds of its end, not up to a whole interval late, and reads it often only near that end.
 */
export function nextPollMs(progress: number, elapsedMs: number): number {
  if (!(progress > 0) || progress >= 100) return POLL_MS;
  const left = (elapsedMs * (100 - progress)) / progress;
  return Math.min(POLL_MS, Math.max(MIN_POLL_MS, Math.round(left / 2)));
}
