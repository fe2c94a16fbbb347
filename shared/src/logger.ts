import { type Logger, pino } from 'pino';

export type { Logger };

/**
 * One JSON line per event on stdout. Written synchronously: pino's default hands each line to libuv's thread
 * pool, which cost ≈20 µs of CPU a line more than the write itself when lines come one per request (two thread
 * wake-ups on a loaded machine), and a killed process lost the lines still queued (docs/performance.md).
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-finance-context"]'], remove: true },
    },
    pino.destination({ dest: 1, sync: true }),
  );
}
