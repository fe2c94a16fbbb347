import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (ms) each named process has used since it started. */
export type CpuSample = Record<string, number>;

/** Reads the processes a side of a scenario runs on: its Node processes and the database servers. */
export type CpuProbe = () => CpuSample;

/** Linux counts `/proc/<pid>/stat` times in USER_HZ ticks, 100 a second on every architecture it supports. */
const TICK_MS = 10;

/**
 * User + system CPU ms of one process, or null when it is gone (or this is not Linux). With `reaped`, also the
 * CPU of its children that ended and that it waited for: PostgreSQL's server reaps each backend that exits (a
 * pool closing an idle connection mid-window), and without it that backend's whole CPU would vanish from a sum.
 */
export function cpuMsOf(pid: number, reaped = false): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // after the command name in parentheses: state is field 3, utime 14, stime 15, cutime 16, cstime 17
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) * TICK_MS;
  } catch {
    return null;
  }
}

/** Every process whose command name is `comm` (PostgreSQL's server and backends are all `postgres`). */
function pidsNamed(comm: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

const totalOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuMsOf(pid, true) ?? 0), 0);

/**
 * PostgreSQL and Redis when they run on this machine (the bench's local servers): their processes' CPU, the
 * database work both sides of a scenario pay, with the ended processes' (backends, Redis's snapshot children)
 * that their parent reaped: a sum that only grows. Absent when they run elsewhere (nothing to read in /proc).
 */
export function databaseServers(): CpuSample {
  const sample: CpuSample = {};
  const postgres = pidsNamed('postgres');
  if (postgres.length) sample.PostgreSQL = totalOf(postgres);
  const redis = pidsNamed('redis-server');
  if (redis.length) sample.Redis = totalOf(redis);
  return sample;
}

/** The named Node processes of `pids` and the database servers, as one probe. */
export const probeOf =
  (pids: () => Record<string, number>): CpuProbe =>
  () => {
    const sample: CpuSample = {};
    for (const [name, pid] of Object.entries(pids())) {
      const ms = cpuMsOf(pid);
      if (ms !== null) sample[name] = ms;
    }
    return { ...sample, ...databaseServers() };
  };

/** Adds what each process used between `before` and `after` to `into` (a process missing from either is left out). */
export function addUsage(into: CpuSample, before: CpuSample, after: CpuSample): CpuSample {
  for (const [name, end] of Object.entries(after)) {
    const start = before[name];
    if (start !== undefined) into[name] = (into[name] ?? 0) + Math.max(0, end - start);
  }
  return into;
}

/** µs of CPU per request of each process, and their sum (`total`), from the CPU ms they used over `requests`. */
export function perRequest(used: CpuSample, requests: number): CpuSample {
  if (requests <= 0 || Object.keys(used).length === 0) return {};
  const result: CpuSample = {};
  let total = 0;
  for (const [name, ms] of Object.entries(used)) {
    result[name] = Math.round((ms * 1000) / requests);
    total += (ms * 1000) / requests;
  }
  result.total = Math.round(total);
  return result;
}
