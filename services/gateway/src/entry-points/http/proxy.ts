import { pipeline, Transform } from 'node:stream';
import { ANONYMOUS_CONTEXT, CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { AppError } from '@finance/shared/errors/app-error';
import type { OutageLog } from '@finance/shared/http/dependency-outage';
import { type Answer, endpointOf, exchange } from '@finance/shared/http/exchange';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '@finance/shared/http/idempotency';
import { internalAgent } from '@finance/shared/http/internal-client';
import { endWithBytes } from '@finance/shared/http/send-bytes';
import { injectTraceHeaders } from '@finance/shared/telemetry/tracing';
import type { Request, Response } from 'express';
import { keyOf } from './authenticate.ts';
import { fileTooLarge } from './authorize.ts';

const PASSED_RESPONSE_HEADERS = ['content-type', 'location', 'retry-after', REPLAYED_HEADER];

/**
 * Forwards the request to its service with the signed context (and the checked `Idempotency-Key`) and
 * relays the answer; a service out of reach or silent for `timeoutMs` is a 503 with Retry-After
 * (a keyed retry then replays), logged once per outage by `outage`. The answer (JSON, never streamed by
 * the services) is read whole and sent with its length in one write: piping it sent a chunked answer,
 * one socket write for the body and another for its end. Its chunks are written as they came, not copied
 * into one buffer: a bill's megabytes cross the gateway without a copy of their own. A file route's body
 * (`fileLimit` set) is passed on as it arrives, counted on the way: past `fileLimit` bytes the call is cut and the
 * answer is 413.
 */
export function proxyTo(baseUrl: string, secret: string, timeoutMs: number, outage?: OutageLog, fileLimit?: number) {
  const { origin, prefix } = endpointOf(baseUrl);
  return async (req: Request, res: Response) => {
    const headers: Record<string, string> = injectTraceHeaders({
      // a public route (no key) goes with the anonymous context
      [CONTEXT_HEADER]: signContext(res.locals.key ? keyOf(res).context : ANONYMOUS_CONTEXT, secret),
      'x-request-id': String(req.id),
    });
    if (res.locals.idempotencyKey) headers[IDEMPOTENCY_HEADER] = res.locals.idempotencyKey;
    let body: string | Buffer | Transform | undefined;
    let file: { tooLarge: boolean } | undefined;
    if (fileLimit !== undefined) {
      headers['content-type'] = req.get('content-type') as string;
      const length = req.get('content-length');
      if (length !== undefined) headers['content-length'] = length;
      file = { tooLarge: false };
      // a client gone mid-file ends the call too (pipeline destroys what it feeds)
      body = countedUpTo(fileLimit, file);
      pipeline(req, body, () => undefined);
    } else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    let upstream: Answer;
    try {
      upstream = await exchange(internalAgent, origin, {
        method: req.method as 'GET',
        path: `${prefix}${req.originalUrl}`,
        headers,
        body,
        timeoutMs,
      });
    } catch (err) {
      if (file?.tooLarge && fileLimit !== undefined) throw fileTooLarge(fileLimit);
      outage?.down(err);
      throw new AppError(503, 'Serviço temporariamente indisponível', { headers: { 'retry-after': '5' } });
    }
    outage?.up();
    res.status(upstream.statusCode);
    for (const name of PASSED_RESPONSE_HEADERS) {
      const value = upstream.headers[name];
      if (typeof value === 'string') res.setHeader(name, value);
    }
    endWithBytes(res, upstream.chunks);
  };
}

/** Passes bytes on while they total at most `limit`; past it, notes it and fails (the call it feeds is cut). */
function countedUpTo(limit: number, note: { tooLarge: boolean }): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen <= limit) return done(null, chunk);
      note.tooLarge = true;
      done(new Error('file over its limit'));
    },
  });
}
