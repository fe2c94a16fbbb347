// The one clock of the system: every "now" and every "today" of the services reads it (elapsed time and timeouts
// excepted: they measure durations, not dates). Production reads the real time; under test (NODE_ENV=test) the
// in-process stack can fix it (`TestStack.setNow`) or start it at another instant (`TEST_NOW`).

let fixed: number | null = null;
/** How far the running clock is from the real time (a test started it at another instant). */
let offset = 0;

export function now(): Date {
  return new Date(fixed ?? Date.now() + offset);
}

function instantOf(instant: string | Date): number {
  const ms = instant instanceof Date ? instant.getTime() : Date.parse(instant);
  if (Number.isNaN(ms)) throw new RangeError(`invalid instant: ${String(instant)}`);
  return ms;
}

/** Setting the clock is for tests: anywhere else it throws, so no configuration or request can move it. */
function assertUnderTest(): void {
  if (process.env.NODE_ENV !== 'test') throw new Error('the clock can be set only under test (NODE_ENV=test)');
}

/** Fixes the clock at an instant (ISO 8601 with offset), for tests only; `null` lets it run again (anywhere). */
export function setNow(instant: string | Date | null): void {
  if (instant !== null) assertUnderTest();
  fixed = instant === null ? null : instantOf(instant);
}

/** Makes the clock run from `instant` on, as if the real time were then; `null` returns to the real time. For tests only. */
export function runClockFrom(instant: string | Date | null): void {
  assertUnderTest();
  offset = instant === null ? 0 : instantOf(instant) - Date.now();
}

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

// IANA names are words joined by "/" (Etc/GMT+3 included); offsets such as "-03:00", which Intl also takes, are not names
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The canonical IANA name (`america/manaus` → `America/Manaus`) of a zone `Intl` knows; null otherwise. */
export function canonicalTimeZone(zone: unknown): string | null {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64 || !IANA_NAME.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** True for an IANA time zone name `Intl` knows (e.g. `America/Manaus`, `UTC`). */
export function isValidTimeZone(zone: unknown): zone is string {
  return canonicalTimeZone(zone) !== null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last day computed per zone and the UTC minute it holds for. */
const lastDays = new Map<string, { minute: number; day: string }>();
const MINUTE_MS = 60_000;

/** The calendar date in `zone` at `instant` (default: the clock's now). */
export function todayIn(zone: string = DEFAULT_TIME_ZONE, instant: Date = now()): string {
  // every zone's offset is a whole number of minutes, so its day changes only on a UTC minute: one Intl
  // formatting per zone and minute instead of one per request
  const minute = Math.floor(instant.getTime() / MINUTE_MS);
  const last = lastDays.get(zone);
  if (last?.minute === minute) return last.day;
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  lastDays.set(zone, { minute, day });
  return day;
}
