import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
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
 * Body bytes of an answer held before it is passed on as it arrives: a list page or a report is held and sent
 * in one write; a bill's megabytes flow through, so twenty in flight do not sit in the gateway at once.
 */
const HOLD_BYTES = 128 * 1024;

/** Writes the answer so far (status, passed headers, the service's length) and gives the response for the rest. */
function startAnswer(res: Response, answer: Answer): Response {
  res.status(answer.statusCode);
  for (const name of [...PASSED_RESPONSE_HEADERS, 'content-length']) {
    const value = answer.headers[name];
    if (typeof value === 'string') res.setHeader(name, value);
  }
  for (const chunk of answer.chunks) res.write(chunk);
  return res;
}

/**
 * Forwards the request to its service with the signed context (and the checked `Idempotency-Key`) and
 * relays the answer; a service out of reach or silent for `timeoutMs` is a 503 with Retry-After
 * (a keyed retry then replays), logged once per outage by `outage`. An answer up to `HOLD_BYTES` is read whole
 * and sent with its length in one write (piping it sent a chunked answer, one socket write for the body and
 * another for its end), its chunks as they came, not copied into one buffer. A larger one is passed on as it
 * arrives with the service's length; a service failing after that point can only cut the connection.
 */
export function proxyTo(baseUrl: string, secret: string, timeoutMs: number, outage?: OutageLog) {
  const { origin, prefix } = endpointOf(baseUrl);
  return async (req: Request, res: Response) => {
    const headers: Record<string, string> = injectTraceHeaders({
      [CONTEXT_HEADER]: signContext(keyOf(res).context, secret),
      'x-request-id': String(req.id),
    });
    if (res.locals.idempotencyKey) headers[IDEMPOTENCY_HEADER] = res.locals.idempotencyKey;
    let body: string | undefined;
    if (req.body !== undefined) {
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
        spill: { afterBytes: HOLD_BYTES, start: (answer) => startAnswer(res, answer) },
      });
    } catch (err) {
      // part of the answer is already on its way: the client learns of the failure from the cut connection
      // (a client that went away stopped the exchange itself: no outage)
      if (res.headersSent) {
        if (!res.destroyed) outage?.down(err);
        res.destroy();
        return;
      }
      outage?.down(err);
      throw new AppError(503, 'Serviço temporariamente indisponível', { headers: { 'retry-after': '5' } });
    }
    outage?.up();
    if (upstream.spilled) {
      res.end();
      return;
    }
    res.status(upstream.statusCode);
    for (const name of PASSED_RESPONSE_HEADERS) {
      const value = upstream.headers[name];
      if (typeof value === 'string') res.setHeader(name, value);
    }
    endWithBytes(res, upstream.chunks);
  };
}
