import { type Logger, pino } from 'pino';

export type { Logger };

/** How long a buffered line may wait for its batch before it is written anyway. */
const FLUSH_EVERY_MS = 1000;
/** A pipe's atomic write (PIPE_BUF): whole lines up to this size never interleave with another process's. */
const MAX_WRITE_BYTES = 4096;

/**
 * JSON lines on stdout. With `bufferBytes` > 0 (below 4096) the lines are written once that many bytes have
 * gathered (one `write` for about fifteen access-log lines instead of one each) and at least every second, each
 * write whole lines of at most 4 KB, so services sharing a stdout pipe (`npm start`) never interleave; pino
 * writes what is left when the process exits.
 */
export function createLogger(service: string, level = 'info', bufferBytes = 0): Logger {
  const options = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-finance-context"]'], remove: true },
  };
  if (bufferBytes === 0) return pino(options);
  const logger = pino(
    options,
    pino.destination({ dest: 1, sync: false, minLength: bufferBytes, maxWrite: MAX_WRITE_BYTES }),
  );
  setInterval(() => logger.flush(), FLUSH_EVERY_MS).unref();
  return logger;
}
