import autocannon from 'autocannon';

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
const result = await autocannon({
  url: options.url,
  method: options.method,
  headers: options.headers,
  body: options.body,
  connections: options.connections,
  duration: options.seconds,
});
const output: DriveResult = {
  requests: result.requests.total,
  seconds: result.duration,
  rps: result.requests.total / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(output)}\n`);
