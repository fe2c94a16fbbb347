import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { traceRequests } from '../telemetry/http-tracing.ts';
import { httpMetrics, registry } from '../telemetry/metrics.ts';
import { accessLog } from './access-log.ts';
import { OutageLog } from './dependency-outage.ts';
import { errorMiddleware, notFoundHandler } from './error-middleware.ts';
import { trackInFlight } from './in-flight.ts';
import type { DrainState } from './server.ts';

export interface AppOptions {
  service: string;
  logger: Logger;
  /** Resolves when the service's dependencies (Postgres, Redis) answer. */
  ready: () => Promise<void>;
  /** Mounts the service's own routes and middlewares. */
  mount: (app: Express) => void;
  /** Answers unmatched routes; the gateway authenticates first so this never runs before 401. */
  notFound?: (req: Request, res: Response, next: NextFunction) => void;
  /** Guards `/metrics` (the gateway's is on the public port); internal services leave it open. */
  metricsGuard?: (req: Request, res: Response, next: NextFunction) => void;
  /** Set while the process shuts down: /readyz answers 503 and every response closes its connection. */
  drain?: DrainState;
  /**
   * Browsers and API clients reach this app (the gateway): security headers (helmet) on every answer. Internal
   * services answer only the gateway, which sets its own headers on what it relays, so they skip that work.
   */
  publicFacing?: boolean;
}

const HEALTH_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id: the caller's `x-request-id` when well-formed, else a new uuid; echoed on the answer. */
    id: string;
  }
}

const REQUEST_ID = /^[\w-]{1,128}$/;

/** Request ids only (no per-request child logger: accessLog writes the one compact line per request). */
function requestId(req: Request, res: Response, next: NextFunction) {
  const given = req.headers['x-request-id'];
  req.id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', req.id);
  next();
}

/** The express app every service shares: request ids, logs, metrics, probes, errors (+ security headers on the public one). */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(traceRequests(options.service));
  if (options.publicFacing) app.use(helmet());
  app.use(requestId);
  app.use(trackInFlight);
  app.use(accessLog(options.logger, HEALTH_PATHS));
  app.use(httpMetrics(options.service));
  const outage = new OutageLog(options.logger);
  app.use(outage.watch);
  const drain = options.drain;
  if (drain) {
    app.use((_req, res, next) => {
      // a keep-alive client reconnects (to another pod) instead of reusing a socket about to close
      if (drain.draining) res.setHeader('connection', 'close');
      next();
    });
  }
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  app.get('/readyz', async (_req, res) => {
    if (drain?.draining) {
      res.status(503).json({ status: 'draining', service: options.service });
      return;
    }
    try {
      await options.ready();
      res.json({ status: 'ready', service: options.service });
    } catch {
      res.status(503).json({ status: 'unavailable', service: options.service });
    }
  });
  app.get('/metrics', options.metricsGuard ?? ((_req, _res, next) => next()), async (_req, res) => {
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  });
  options.mount(app);
  app.use(options.notFound ?? notFoundHandler);
  app.use(errorMiddleware(options.logger, outage));
  return app;
}
