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
import { ReceivedFile } from './received-file.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** On a service's fresh answer to a keyed request whose write committed now (service to service only). */
export const COMMITTED_HEADER = 'idempotent-committed';
export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A record committed this long ago without its answer belongs to a request that died after its commit. */
export const ANSWER_LOST_AFTER_SECONDS = 60;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Answers about the key itself (a twin in flight, a lost answer): never kept as the key's outcome. */
const NOT_AN_OUTCOME = new Set([KEY_IN_FLIGHT, KEY_ANSWER_LOST, KEY_REUSED]);

/**
 * Test hooks, set only by code running in the process (tests): `afterCommit` runs right after the commit that
 * wrote the key's record, `beforeAnswer` after the handler finished and before its answer is stored and sent.
 * `'drop'` closes the connection and keeps nothing more, as a process killed at that instant would.
 */
export const idempotencyTestHooks: {
  afterCommit?: (service: string, req: Request) => Promise<'drop' | undefined>;
  beforeAnswer?: (service: string, req: Request) => Promise<'drop' | undefined>;
} = {};

/** Method, path with query string, context and SHA-256 of the body (JSON, or a file's bytes): what a repeat must match to be replayed. */
export function fingerprintOf(req: Request, ctx: CallerContext): string {
  // a file stored as it arrived was hashed on the way
  const digest =
    req.body instanceof ReceivedFile
      ? req.body.sha256
      : createHash('sha256')
          .update(req.body === undefined ? '' : JSON.stringify(req.body))
          .digest('hex');
  return `${req.method} ${req.originalUrl} ${contextKey(ctx)} ${digest}`;
}

/**
 * The key an idempotent request's next write to another service carries, `<key> #<n>` (n-th such call;
 * the space keeps it apart from any key a client may send), or none outside a scope, or while an answer is
 * rebuilt from a recovery point (that only reads).
 */
export function derivedIdempotencyKey(method: string): string | null {
  const scope = idempotencyScope.getStore();
  if (!scope || scope.closed || scope.recovering !== undefined || !WRITE_METHODS.has(method.toUpperCase())) {
    return null;
  }
  scope.calls += 1;
  return `${scope.key} #${scope.calls}`;
}

/** Notes how another service answered a derived call: a replay, or a write it committed just now. */
export function noteDerivedAnswer(headers: Record<string, unknown>): void {
  const scope = idempotencyScope.getStore();
  if (!scope) return;
  if (headers[REPLAYED_HEADER] === 'true') scope.replayed += 1;
  else if (headers[COMMITTED_HEADER] === 'true') scope.committedElsewhere += 1;
}

/** True while serving a write that carries an `Idempotency-Key` (its calls to other services then carry derived keys). */
export function servingIdempotentRequest(): boolean {
  return Boolean(idempotencyScope.getStore());
}

/**
 * Every service's writes with `Idempotency-Key` (the gateway forwards the client's; a service calling
 * another derives one per call): a known key replays its answer or refuses, a new one runs in a scope
 * whose first commit records the key with the answer the use case kept (`keepAnswer`, `IdempotencySubscriber`),
 * and the answer sent is stored before it leaves unless the record already holds it.
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
      replayed: 0,
      committedElsewhere: 0,
      closed: false,
      successStatus: 200,
      answer: null,
      kept: null,
    };
    // a process killed right after its commit (test hook): nothing more is kept or sent
    let dropped = false;
    scope.afterCommit = async () => {
      if ((await idempotencyTestHooks.afterCommit?.(service, req)) !== 'drop') return;
      dropped = true;
      scope.closed = true;
      req.socket.destroy();
    };
    const found = await findAnswer(em, scope.keyId, key);
    if (found && found.fingerprint !== scope.fingerprint) throw conflict(KEY_REUSED);
    if (found?.status === null && found.recovery !== null) {
      // the first attempt committed and kept where to rebuild its answer from: this one rebuilds it (mountRoute)
      // and completes that record, writing nothing
      scope.recovering = JSON.parse(found.recovery);
      scope.claim = found.claim;
      scope.written = true;
    } else if (found?.status === null) {
      throw conflict(found.ageSeconds > ANSWER_LOST_AFTER_SECONDS ? KEY_ANSWER_LOST : KEY_IN_FLIGHT);
    } else if (found) {
      res.status(found.status).setHeader(REPLAYED_HEADER, 'true');
      if (found.body === null) res.end();
      else res.type('application/json').send(found.body);
      return;
    }
    const send = res.json.bind(res);
    res.json = (body?: unknown) => {
      if (dropped) return res;
      scope.closed = true;
      const status = res.statusCode;
      const text = body === undefined ? null : JSON.stringify(body);
      const message = (body as { message?: unknown } | undefined)?.message;
      // rebuilt from what an earlier attempt committed: its recovery point, or its writes elsewhere, which replayed
      // while nothing committed now, here or there
      const replaying = !scope.written && scope.committedElsewhere === 0 && scope.replayed > 0;
      if (scope.recovering !== undefined || replaying) res.setHeader(REPLAYED_HEADER, 'true');
      // a service calling this one learns that the write behind this answer committed now
      else if (scope.written) res.setHeader(COMMITTED_HEADER, 'true');
      (async () => {
        if ((await idempotencyTestHooks.beforeAnswer?.(service, req)) === 'drop') {
          req.socket.destroy();
          return;
        }
        // a 5xx leaves the key free unless a write committed (then a retry learns it ran)
        // an answer asking to retry later (work in progress elsewhere) is not the request's outcome either
        const transient = res.getHeader('retry-after') !== undefined;
        const kept = scope.kept;
        const alreadyKept = kept !== null && 'status' in kept && kept.status === status && kept.body === text;
        if (status < 500 && !transient && !alreadyKept && !(status === 409 && NOT_AN_OUTCOME.has(message as string))) {
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
