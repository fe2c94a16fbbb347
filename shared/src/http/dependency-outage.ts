import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppError } from '../errors/app-error.ts';

/** Seconds a client should wait before retrying while a dependency is down. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

export const unavailable = () =>
  new AppError(503, 'Serviço temporariamente indisponível', {
    headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
  });

// socket-level failures reaching PostgreSQL (refused, reset, unreachable, DNS)
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// SQLSTATE: class 08 connection exception, 57P01-57P03 shutdown / cannot connect now, 53300 too many connections
const SQLSTATE = /^(08...|57P0[123]|53300)$/;
const MESSAGES =
  /connection terminated|terminating connection|timeout exceeded when trying to connect|connection timeout|client has encountered a connection error|not queryable|the database system is (starting up|shutting down)/i;

/**
 * True when an error means PostgreSQL cannot be reached (as opposed to a bug or a bad statement):
 * the error, its `cause` chain and an AggregateError's members are checked.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 6) return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
  if (e.name === 'ConnectionException') return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * One log line per state change of a dependency, not a stack per request: `down` logs the first
 * failure of an outage (a warn without stack), and the first success after it (`up`, or a request
 * not answered 5xx when `watch` is mounted) logs the recovery.
 */
export class OutageLog {
  private isDown = false;
  private since = 0;
  private failed = 0;
  private readonly logger: Logger;
  private readonly dependency: string;

  constructor(logger: Logger, dependency = 'postgresql') {
    this.logger = logger;
    this.dependency = dependency;
  }

  down(err: unknown): void {
    this.failed += 1;
    if (this.isDown) return;
    this.isDown = true;
    this.since = Date.now();
    const e = err as { code?: unknown; message?: unknown };
    this.logger.warn(
      { dependency: this.dependency, code: e?.code, reason: String(e?.message ?? err).slice(0, 200) },
      'dependency unavailable: answering 503 until it returns',
    );
  }

  /** The dependency answered: logs the end of an outage, once. */
  up(): void {
    if (!this.isDown) return;
    this.isDown = false;
    this.logger.info(
      { dependency: this.dependency, down_ms: Date.now() - this.since, requests_refused: this.failed },
      'dependency available again',
    );
    this.failed = 0;
  }

  /** Marks the outage over when a request not answered 5xx completes. */
  watch = (req: Request, res: Response, next: NextFunction): void => {
    if (this.isDown) {
      res.once('finish', () => {
        if (res.statusCode < 500 && req.path !== '/healthz' && req.path !== '/metrics') this.up();
      });
    }
    next();
  };
}
