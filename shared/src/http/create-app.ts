import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { traceRequests } from '../telemetry/http-tracing.ts';
import { httpMetrics, registry } from '../telemetry/metrics.ts';
import { errorMiddleware, notFoundHandler } from './error-middleware.ts';

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
  /**
   * Browsers and API clients reach this app (the gateway): security headers (helmet) on every answer. Internal
   * services answer only the gateway, which sets its own headers on what it relays, so they skip that work.
   */
  publicFacing?: boolean;
}

const HEALTH_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The express app every service shares: request ids, logs, metrics, probes, errors (+ security headers on the public one). */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(traceRequests(options.service));
  if (options.publicFacing) app.use(helmet());
  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{1,128}$/.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => HEALTH_PATHS.has(req.url ?? '') },
      quietReqLogger: true,
    }),
  );
  app.use(httpMetrics(options.service));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  app.get('/readyz', async (_req, res) => {
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
  app.use(errorMiddleware(options.logger));
  return app;
}
