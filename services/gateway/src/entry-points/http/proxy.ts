import { pipeline } from 'node:stream/promises';
import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { AppError } from '@finance/shared/errors/app-error';
import type { OutageLog } from '@finance/shared/http/dependency-outage';
import { internalAgent } from '@finance/shared/http/internal-client';
import { injectTraceHeaders } from '@finance/shared/telemetry/tracing';
import type { Request, Response } from 'express';
import { request } from 'undici';
import { keyOf } from './authenticate.ts';

const PASSED_RESPONSE_HEADERS = ['content-type', 'location', 'retry-after'];

/** The service's answer, kept when the idempotency middleware asks for it (`res.locals.bufferUpstream`). */
export interface UpstreamReply {
  status: number;
  contentType: string | null;
  body: Buffer;
}

export const upstreamReplyOf = (res: Response): UpstreamReply | undefined =>
  res.locals.upstreamReply as UpstreamReply | undefined;

/**
 * Forwards the request to its service with the signed context and streams the answer back (buffers it
 * when asked). A service out of reach is a 503 with Retry-After, logged once per outage by `outage`.
 */
export function proxyTo(baseUrl: string, secret: string, outage?: OutageLog) {
  const base = baseUrl.replace(/\/$/, '');
  return async (req: Request, res: Response) => {
    const headers: Record<string, string> = injectTraceHeaders({
      [CONTEXT_HEADER]: signContext(keyOf(res).context, secret),
      'x-request-id': String(req.id),
    });
    let body: string | undefined;
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    let upstream: Awaited<ReturnType<typeof request>>;
    try {
      upstream = await request(`${base}${req.originalUrl}`, {
        method: req.method as 'GET',
        headers,
        body,
        dispatcher: internalAgent,
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
    if (!res.locals.bufferUpstream) return pipeline(upstream.body, res);
    const reply: UpstreamReply = {
      status: upstream.statusCode,
      contentType: typeof upstream.headers['content-type'] === 'string' ? upstream.headers['content-type'] : null,
      body: Buffer.from(await upstream.body.arrayBuffer()),
    };
    res.locals.upstreamReply = reply;
    res.end(reply.body);
  };
}
