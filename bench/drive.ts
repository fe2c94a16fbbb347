import autocannon from 'autocannon';
import { STEADY_LINE } from './load.ts';

/**
 * Child process of the harness: drives one URL with autocannon and prints its figures as one JSON line.
 * Kept out of the stack's process so the load generator does not share the servers' event loop.
 */
export interface DriveOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds driven first and not counted, so the counted window starts with every connection busy. */
  warmup: number;
  /** Seconds counted, after the warm-up. */
  seconds: number;
}

export interface DriveResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const options = JSON.parse(process.argv[2]) as DriveOptions;
const latencies: number[] = [];
let non2xx = 0;
let steadyAt = Number.POSITIVE_INFINITY;
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const run = autocannon(
    {
      url: options.url,
      method: options.method,
      headers: options.headers,
      body: options.body,
      connections: options.connections,
      duration: options.warmup + options.seconds,
    },
    (err, finished) => (err ? reject(err) : resolve(finished)),
  );
  // only answers that arrive inside the window count: a slow request (a bill takes a second at 20 connections)
  // is neither missing at the start, when the connections have just opened, nor counted when cut off at the end
  run.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (performance.now() < steadyAt) return;
    latencies.push(responseTime);
    if (statusCode < 200 || statusCode > 299) non2xx += 1;
  });
  setTimeout(() => {
    steadyAt = performance.now();
    process.stdout.write(`${STEADY_LINE}\n`);
  }, options.warmup * 1000);
});
const seconds = (performance.now() - steadyAt) / 1000;
latencies.sort((a, b) => a - b);
const percentile = (p: number) =>
  latencies.length
    ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] * 10) / 10
    : 0;
const output: DriveResult = {
  requests: latencies.length,
  seconds,
  rps: latencies.length / seconds,
  p50: percentile(0.5),
  p99: percentile(0.99),
  non2xx,
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(output)}\n`);
