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

const PASSED_RESPONSE_HEADERS = ['content-type', 'location', 'retry-after', REPLAYED_HEADER];

/**
 * Forwards the request to its service with the signed context (and the checked `Idempotency-Key`) and
 * relays the answer; a service out of reach or silent for `timeoutMs` is a 503 with Retry-After
 * (a keyed retry then replays), logged once per outage by `outage`. The answer (JSON, never streamed by
 * the services) is read whole and sent with its length in one write: piping it sent a chunked answer,
 * one socket write for the body and another for its end. Its chunks are written as they came, not copied
 * into one buffer: a bill's megabytes cross the gateway without a copy of their own.
 */
export function proxyTo(baseUrl: string, secret: string, timeoutMs: number, outage?: OutageLog) {
  const { origin, prefix } = endpointOf(baseUrl);
  return async (req: Request, res: Response) => {
    const headers: Record<string, string> = injectTraceHeaders({
      // a public route (no key) goes with the anonymous context
      [CONTEXT_HEADER]: signContext(res.locals.key ? keyOf(res).context : ANONYMOUS_CONTEXT, secret),
      'x-request-id': String(req.id),
    });
    if (res.locals.idempotencyKey) headers[IDEMPOTENCY_HEADER] = res.locals.idempotencyKey;
    let body: string | Buffer | undefined;
    if (Buffer.isBuffer(req.body)) {
      headers['content-type'] = req.get('content-type') as string;
      body = req.body;
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
