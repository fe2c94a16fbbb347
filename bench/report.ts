import { writeFileSync } from 'node:fs';
import os from 'node:os';
import type { DriveResult } from './drive.ts';

export interface Figures {
  rps?: number;
  p50?: number;
  p99?: number;
  /** Wall time of a single operation (recategorization). */
  ms?: number;
  requests?: number;
  non2xx?: number;
  errors?: number;
  rows?: number;
}

export interface ScenarioResult extends Figures {
  scenario: string;
  request: string;
  skipped?: string;
  /** The floor as the issue measured it: bare express + pg doing the same database work. */
  baseline?: Figures & { name: string };
  /**
   * The production topology's own floor: the baseline behind as many bare relays (express + undici, own
   * processes) as the request crosses hops in `npm start`. Measured on that pass only.
   */
  bareTopology?: Figures & { name: string };
  /**
   * A floor of the contract's own weight (the bill): a bare server answering as many bytes as ours, the records
   * the spec embeds in every row written by PostgreSQL; and the same behind the bare relays (production pass).
   */
  sameBytes?: Figures & { name: string };
  sameBytesTopology?: Figures & { name: string };
  /** A read's statements run by pg clients in the bench's process, no HTTP at all: a stricter floor. */
  raw?: Figures & { name: string };
  /** Commit-to-insights lag of the events the load wrote (create transaction). */
  lag?: { events: number; p50: number; p99: number };
  /** How many times the baseline's throughput (or speed) exceeds the gateway path's: 1 = no overhead. */
  ratio?: number;
  /** What `cpu` is counted per: a request unless said (an import's entry). */
  cpuPer?: string;
  /** µs of CPU per request of each process of either side (PostgreSQL and Redis included), and their `total`. */
  cpu?: {
    ours: Record<string, number>;
    baseline: Record<string, number>;
    bareTopology?: Record<string, number>;
    sameBytes?: Record<string, number>;
    sameBytesTopology?: Record<string, number>;
  };
}

/** The figures of several windows of one load: their requests over their seconds, mean p50, worst p99. */
export function combinedWindows(windows: DriveResult[]): Figures {
  const sum = (of: (w: DriveResult) => number) => windows.reduce((total, w) => total + of(w), 0);
  const requests = sum((w) => w.requests);
  return {
    rps: requests / sum((w) => w.seconds),
    p50: Math.round((sum((w) => w.p50) / windows.length) * 10) / 10,
    p99: Math.max(...windows.map((w) => w.p99)),
    requests,
    non2xx: sum((w) => w.non2xx),
    errors: sum((w) => w.errors),
  };
}

/** Baseline throughput over ours (req/s), or our time over the baseline's (ms): "× slower" either way. */
export function ratioOf(result: ScenarioResult, base: Figures | undefined = result.baseline): number | undefined {
  if (!base) return undefined;
  if (base.rps && result.rps) return base.rps / result.rps;
  if (base.ms && result.ms) return result.ms / base.ms;
  return undefined;
}

/** `CPU µs per request: ours gateway 190 + ledger 270 + … = 785; baseline … = 300 (2.6×)`. */
export function cpuLine(cpu: NonNullable<ScenarioResult['cpu']>, per = 'request'): string {
  const side = (sample: Record<string, number>) =>
    `${Object.entries(sample)
      .filter(([name]) => name !== 'total')
      .map(([name, us]) => `${name} ${us}`)
      .join(' + ')} = ${sample.total}`;
  const ratio = (base: Record<string, number> | undefined) =>
    base?.total ? ` (${(cpu.ours.total / base.total).toFixed(1)}×)` : '';
  const more = (name: string, sample: Record<string, number> | undefined) =>
    sample?.total ? `; ${name} ${side(sample)}${ratio(sample)}` : '';
  return `CPU µs per ${per}: ours ${side(cpu.ours)}; baseline ${side(cpu.baseline)}${ratio(cpu.baseline)}${more('bare topology', cpu.bareTopology)}${more('same bytes', cpu.sameBytes)}${more('same bytes, bare topology', cpu.sameBytesTopology)}`;
}

/** The same against the raw SQL figure, for the reads that have one. */
export const rawRatioOf = (result: ScenarioResult) => (result.raw ? ratioOf(result, result.raw) : undefined);

const num = (value: number | undefined, digits = 0) =>
  value === undefined
    ? '—'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function baselineCell(base: (Figures & { name: string }) | undefined): string {
  if (!base) return '—';
  if (base.rps !== undefined) return `${num(base.rps)} req/s (${base.name})`;
  return `${num(base.ms)} ms (${base.name})`;
}

/** Our throughput against the bare topology's (or our time against its), "× slower" as `ratio`. */
export const topologyRatioOf = (result: ScenarioResult) =>
  result.bareTopology ? ratioOf(result, result.bareTopology) : undefined;

/** The table as Markdown, so it can go into docs/performance.md as printed; the bare topology's columns when measured. */
export function table(results: ScenarioResult[]): string {
  const hops = results.some((r) => r.bareTopology);
  const lines = [
    `| Scenario | Requests/s | p50 ms | p99 ms | Baseline | Ratio | p99 ratio | Raw SQL, no HTTP | Ratio |${hops ? ' Bare topology | Ratio | p99 ratio |' : ''}`,
    `|---|---:|---:|---:|---|---:|---:|---|---:|${hops ? '---|---:|---:|' : ''}`,
  ];
  for (const r of results) {
    if (r.skipped) {
      lines.push(`| ${r.scenario} | not available: ${r.skipped} | | | | | | | |${hops ? ' | | |' : ''}`);
      continue;
    }
    const throughput = r.rps !== undefined ? num(r.rps) : `${num(r.ms)} ms total`;
    const times = (value: number | undefined) => (value === undefined ? '—' : `${num(value, 1)}×`);
    const ratio = times(r.ratio);
    const p99Ratio = (base: Figures | undefined) =>
      r.p99 !== undefined && base?.p99 ? `${num(r.p99 / base.p99, 1)}×` : '—';
    const topology = hops
      ? ` ${baselineCell(r.bareTopology)} | ${times(topologyRatioOf(r))} | ${p99Ratio(r.bareTopology)} |`
      : '';
    const lag = r.lag
      ? ` (event lag to insights p50 ${r.lag.p50} ms, p99 ${r.lag.p99} ms, ${r.lag.events} events)`
      : '';
    lines.push(
      `| ${r.scenario}${lag} | ${throughput} | ${num(r.p50, 1)} | ${num(r.p99, 1)} | ${baselineCell(r.baseline)} | ${ratio} | ${p99Ratio(r.baseline)} | ${r.raw ? baselineCell(r.raw) : '—'} | ${times(rawRatioOf(r))} |${topology}`,
    );
  }
  return lines.join('\n');
}

/** `, 1.0× the same bytes (0.9× behind the bare relays)` for a scenario measured against its bytes' floor. */
export function sameBytesNote(result: ScenarioResult): string {
  const bare = result.sameBytes && ratioOf(result, result.sameBytes);
  if (bare === undefined) return '';
  const hops = result.sameBytesTopology && ratioOf(result, result.sameBytesTopology);
  return `, ${bare.toFixed(1)}× the same bytes${hops === undefined ? '' : ` (${hops.toFixed(1)}× behind the bare relays)`}`;
}

/** The scenarios measured against a bare server answering as many bytes as ours, as Markdown; '' if none. */
export function sameBytesTable(results: ScenarioResult[]): string {
  const measured = results.filter((r) => r.sameBytes);
  if (!measured.length) return '';
  const hops = measured.some((r) => r.sameBytesTopology);
  const cells = (r: ScenarioResult, base: (Figures & { name: string }) | undefined) => {
    const ratio = base && ratioOf(r, base);
    const p99 = r.p99 !== undefined && base?.p99 ? `${num(r.p99 / base.p99, 1)}×` : '—';
    return ` ${baselineCell(base)} | ${ratio === undefined ? '—' : `${num(ratio, 1)}×`} | ${p99} |`;
  };
  const lines = [
    `| Scenario, against the same bytes | Requests/s | Same bytes | Ratio | p99 ratio |${hops ? ' Same bytes, bare topology | Ratio | p99 ratio |' : ''}`,
    `|---|---:|---|---:|---:|${hops ? '---|---:|---:|' : ''}`,
    ...measured.map(
      (r) => `| ${r.scenario} | ${num(r.rps)} |${cells(r, r.sameBytes)}${hops ? cells(r, r.sameBytesTopology) : ''}`,
    ),
  ];
  return lines.join('\n');
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    // other work on the machine shows here: the figures are only comparable at a similar load
    load_average: os.loadavg().map((value) => Number(value.toFixed(2))),
    date: new Date().toISOString(),
  };
}

export function writeResults(path: string, data: Record<string, unknown>): void {
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}
