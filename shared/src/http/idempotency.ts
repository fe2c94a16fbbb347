import { createHash, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { CallerContext } from '../context/signed-context.ts';
import { contextKey } from '../db/context-scope.ts';
import {
  findAnswer,
  type IdempotencyScope,
  idempotencyScope,
  KEY_ANSWER_LOST,
  KEY_IN_FLIGHT,
  KEY_REUSED,
  saveAnswer,
  sweepAnswers,
} from '../db/idempotency-records.ts';
import { conflict } from '../errors/app-error.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A record committed this long ago without its answer belongs to a request that died after its commit. */
export const ANSWER_LOST_AFTER_SECONDS = 60;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Answers about the key itself (a twin in flight, a lost answer): never kept as the key's outcome. */
const NOT_AN_OUTCOME = new Set([KEY_IN_FLIGHT, KEY_ANSWER_LOST, KEY_REUSED]);

/**
 * Test hooks: `beforeAnswer` runs after the handler finished (its writes committed) and before the
 * answer is recorded and sent; `'drop'` closes the connection without recording, as a process killed
 * at that instant would.
 */
export const idempotencyTestHooks: {
  beforeAnswer?: (service: string, req: Request) => Promise<'drop' | undefined>;
} = {};

/** Method, path with query string, context and SHA-256 of the body (JSON, or a file's bytes): what a repeat must match to be replayed. */
export function fingerprintOf(req: Request, ctx: CallerContext): string {
  const body = req.body === undefined ? '' : Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body);
  return `${req.method} ${req.originalUrl} ${contextKey(ctx)} ${createHash('sha256').update(body).digest('hex')}`;
}

/**
 * The key an idempotent request's next write to another service carries, `<key> #<n>` (n-th such call;
 * the space keeps it apart from any key a client may send), or none outside a scope.
 */
export function derivedIdempotencyKey(method: string): string | null {
  const scope = idempotencyScope.getStore();
  if (!scope || scope.closed || !WRITE_METHODS.has(method.toUpperCase())) return null;
  scope.calls += 1;
  return `${scope.key} #${scope.calls}`;
}

/** True while serving a write that carries an `Idempotency-Key` (its calls to other services then carry derived keys). */
export function servingIdempotentRequest(): boolean {
  return Boolean(idempotencyScope.getStore());
}

/**
 * Every service's writes with `Idempotency-Key` (the gateway forwards the client's; a service calling
 * another derives one per call): a known key replays its answer or refuses, a new one runs in a scope
 * whose first commit records the key (`IdempotencySubscriber`), and the answer is stored before it is sent.
 */
export function idempotentWrites(orm: MikroORM, logger: Logger, service: string) {
  let lastSweep = 0;
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !WRITE_METHODS.has(req.method)) {
      idempotencyScope.run(null, next);
      return;
    }
    const ctx = res.locals.context as CallerContext;
    const em = orm.em.fork();
    if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = Date.now();
      sweepAnswers(orm.em.fork()).catch((err) => logger.warn({ err: err.message }, 'idempotency sweep failed'));
    }
    const scope: IdempotencyScope = {
      keyId: ctx.keyId ?? 'none',
      key,
      fingerprint: fingerprintOf(req, ctx),
      claim: randomUUID(),
      written: false,
      pending: null,
      calls: 0,
      closed: false,
    };
    const found = await findAnswer(em, scope.keyId, key);
    if (found) {
      if (found.fingerprint !== scope.fingerprint) throw conflict(KEY_REUSED);
      if (found.status === null) {
        throw conflict(found.ageSeconds > ANSWER_LOST_AFTER_SECONDS ? KEY_ANSWER_LOST : KEY_IN_FLIGHT);
      }
      res.status(found.status).setHeader(REPLAYED_HEADER, 'true');
      if (found.body === null) res.end();
      else res.type('application/json').send(found.body);
      return;
    }
    const send = res.json.bind(res);
    res.json = (body?: unknown) => {
      scope.closed = true;
      const status = res.statusCode;
      const text = body === undefined ? null : JSON.stringify(body);
      const message = (body as { message?: unknown } | undefined)?.message;
      (async () => {
        if ((await idempotencyTestHooks.beforeAnswer?.(service, req)) === 'drop') {
          req.socket.destroy();
          return;
        }
        // a 5xx leaves the key free unless a write committed (then a retry learns it ran)
        // an answer asking to retry later (work in progress elsewhere) is not the request's outcome either
        const transient = res.getHeader('retry-after') !== undefined;
        if (status < 500 && !transient && !(status === 409 && NOT_AN_OUTCOME.has(message as string))) {
          await saveAnswer(em, scope, status, text).catch((err) =>
            logger.warn({ err: err.message, reqId: req.id }, 'idempotency answer not saved'),
          );
        }
        send(body);
      })().catch((err) => logger.error({ err, reqId: req.id }, 'idempotent answer failed'));
      return res;
    };
    idempotencyScope.run(scope, next);
  };
}
