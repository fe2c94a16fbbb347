import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

interface KeyContext {
  keyId?: string | null;
}

/** The key behind a request: the gateway's authenticated key, or the signed context a service received. */
const keyIdOf = (res: Response): string | undefined => {
  const locals = res.locals as { key?: { context?: KeyContext }; context?: KeyContext };
  return (locals.key?.context ?? locals.context)?.keyId ?? undefined;
};

/**
 * One compact line per request (about 200 bytes, no headers): method, route, status, duration,
 * request id, trace id and key id; 5xx at warn, the rest at info. Probes and scrapes are not logged.
 */
export function accessLog(logger: Logger, ignore: Set<string>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (ignore.has(req.path)) return next();
    const started = performance.now();
    const span = trace.getActiveSpan()?.spanContext();
    const traceId = span && isSpanContextValid(span) ? span.traceId : undefined;
    res.once('close', () => {
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : undefined;
      const line = {
        method: req.method,
        route: route ?? req.path.slice(0, 200),
        status: res.writableFinished ? res.statusCode : 499,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        req_id: req.id,
        trace_id: traceId,
        key_id: keyIdOf(res),
      };
      if (line.status >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
