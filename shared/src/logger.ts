import { type Logger, pino } from 'pino';

export type { Logger };

export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-finance-context"]'], remove: true },
  });
}
