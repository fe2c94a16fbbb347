import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { httpInstrumented, tracingStarted, UNTRACED_PATHS } from './tracing.ts';

const tracer = trace.getTracer('finance-http');

/**
 * One SERVER span per request, continuing the caller's W3C `traceparent`, named by the matched route — the
 * same span the http/express instrumentations make. It runs only where they did not patch http and express
 * (tracing started with `instrument: false`: jest loads modules itself, so require/import hooks never see them),
 * and only once tracing started: with it off (no endpoint) a request pays nothing for a span nobody records.
 */
export function traceRequests(service: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!tracingStarted() || httpInstrumented() || UNTRACED_PATHS.has(req.path)) return next();
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
