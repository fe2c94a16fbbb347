/**
 * The sandbox's business clock (its data's days, consents' dates): the real time, or, with `SANDBOX_NOW` (an ISO
 * 8601 instant a test run on another day gives it), running from that instant. Tokens keep the real time.
 */
let offset = 0;

export function runSandboxClockFrom(instant: string | undefined): void {
  const ms = instant ? Date.parse(instant) : Number.NaN;
  if (instant && Number.isNaN(ms)) throw new RangeError(`SANDBOX_NOW is not an instant: ${instant}`);
  offset = instant ? ms - Date.now() : 0;
}

export const sandboxNow = (): number => Date.now() + offset;
