/**
 * When `npm start` restarts a crashed service: after a growing delay (250 ms doubling up to 5 s, back to
 * the start once the service stayed up a minute), and never again once it crashed `maxCrashes` times
 * within `windowMs` (a crash loop: the whole group stops with a message).
 */
export interface RestartPolicy {
  maxCrashes: number;
  windowMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxCrashes: 5,
  windowMs: 60_000,
  firstDelayMs: 250,
  maxDelayMs: 5_000,
};

export type RestartDecision = { restart: true; delayMs: number } | { restart: false; crashes: number };

/** Decides from the times of this service's crashes (oldest first, the latest included) what to do now. */
export function afterCrash(crashTimes: number[], now: number, policy = DEFAULT_RESTART_POLICY): RestartDecision {
  const recent = crashTimes.filter((at) => now - at < policy.windowMs);
  if (recent.length >= policy.maxCrashes) return { restart: false, crashes: recent.length };
  const delayMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, recent.length - 1));
  return { restart: true, delayMs };
}
