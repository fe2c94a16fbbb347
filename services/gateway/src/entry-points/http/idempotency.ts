import { createHash, randomUUID } from 'node:crypto';
import { AppError, conflict, invalidField } from '@finance/shared/errors/app-error';
import type { Request, Response } from 'express';
import type { IdempotencyRecord, IdempotencyStore } from '../../data-access/idempotency-store.ts';
import { keyOf } from './authenticate.ts';
import { upstreamReplyOf } from './proxy.ts';

type Handler = (req: Request, res: Response) => Promise<unknown>;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export const KEY_REUSED = 'Chave de idempotência reutilizada com outra requisição';
export const KEY_IN_FLIGHT = 'Requisição com esta chave de idempotência ainda em andamento';

/** Method, path with query and SHA-256 of the JSON body as forwarded: what a repeat must match to be replayed. */
const fingerprintOf = (req: Request): string => {
  const body = req.body === undefined ? '' : JSON.stringify(req.body);
  return `${req.method} ${req.originalUrl} ${createHash('sha256').update(body).digest('hex')}`;
};

function replay(res: Response, record: Extract<IdempotencyRecord, { state: 'done' }>) {
  res.status(record.status);
  if (record.contentType) res.setHeader('content-type', record.contentType);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.end(record.body);
}

/**
 * Wraps the proxy: a write with `Idempotency-Key` runs once per API key and key; a repeat with the same
 * fingerprint replays the stored answer, a different one or one still running is 409. Fails open without Redis.
 */
export function idempotent(store: IdempotencyStore, proxy: Handler): Handler {
  return async (req, res) => {
    const given = req.header(IDEMPOTENCY_HEADER);
    if (given === undefined || !WRITE_METHODS.has(req.method)) return proxy(req, res);
    if (!VALID_KEY.test(given)) {
      throw invalidField('Idempotency-Key', 'Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis');
    }
    const key = store.keyFor(keyOf(res).context.keyId ?? 'none', given);
    const fingerprint = fingerprintOf(req);
    let held: string | null = null;
    try {
      if (!store.available) throw new Error('redis not ready');
      // a second try covers a key freed (upstream failure) or expired between our claim and our read
      for (let attempt = 0; attempt < 2; attempt++) {
        held = await store.claim(key, { state: 'pending', fingerprint, claim: randomUUID() });
        if (held !== null) break;
        const record = await store.read(key);
        if (record === null) continue;
        if (record.fingerprint !== fingerprint) throw conflict(KEY_REUSED);
        if (record.state === 'pending') throw conflict(KEY_IN_FLIGHT);
        return replay(res, record);
      }
      if (held === null) throw conflict(KEY_IN_FLIGHT);
    } catch (err) {
      if (err instanceof AppError) throw err;
      req.log.warn({ err: (err as Error).message }, 'idempotency unavailable; request proceeds without it');
      return proxy(req, res);
    }
    res.locals.bufferUpstream = true;
    try {
      await proxy(req, res);
    } catch (err) {
      await store.release(key, held).catch(() => undefined);
      throw err;
    }
    const reply = upstreamReplyOf(res);
    try {
      if (!reply || reply.status >= 500) await store.release(key, held);
      else {
        const { status, contentType, body } = reply;
        await store.complete(key, held, {
          state: 'done',
          fingerprint,
          status,
          contentType,
          body: body.toString('utf8'),
        });
      }
    } catch (err) {
      req.log.warn({ err: (err as Error).message }, 'idempotency record not saved');
    }
  };
}
