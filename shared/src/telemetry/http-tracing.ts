import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';

const tracer = trace.getTracer('finance-http');
// probes and scrapes every few seconds would bury the traces that matter
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One SERVER span per request, continuing the caller's W3C `traceparent`, named by the matched route.
 * Our own middleware rather than a require-hook instrumentation, so it works however modules load.
 */
export function traceRequests(service: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (UNTRACED.has(req.path)) return next();
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'finance.service': service, 'http.request.method': req.method, 'url.path': req.path },
      },
      parent,
    );
    res.on('close', () => {
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : undefined;
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
