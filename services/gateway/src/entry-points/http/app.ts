import { type AnyRoute, bodyLimitBytes, type ServiceName } from '@finance/shared/contracts/route';
import { pingDatabase } from '@finance/shared/db/orm';
import { createApp } from '@finance/shared/http/create-app';
import { OutageLog } from '@finance/shared/http/dependency-outage';
import { verifyJsonDepth } from '@finance/shared/http/json-depth';
import type { DrainState } from '@finance/shared/http/server';
import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../../config.ts';
import type { KeyCache } from '../../domain/key-cache.ts';
import { authenticate } from './authenticate.ts';
import { authorize, refuseLargerThan, requireJson, requireMediaType } from './authorize.ts';
import { docsRouter } from './docs.ts';
import { idempotent } from './idempotency.ts';
import { proxyTo } from './proxy.ts';
import { rateLimitPerKey } from './rate-limit.ts';
import { requireAdmin } from './require-admin.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  orm: MikroORM;
  redis: Redis;
  logger: Logger;
  routes: AnyRoute[];
  /** Extra routers mounted before authentication (the queue dashboard). */
  adminRouter?: express.Router;
  /** Shutdown state (readiness 503 and `connection: close` while draining). */
  drain?: DrainState;
  /** Verified keys kept in memory while revocations are being listened for. */
  keyCache?: KeyCache;
}

const DEFAULT_BODY_LIMIT = '1mb';
/** What requireJson lets through is what gets parsed: a `+json` body is JSON, never silently dropped. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * The gateway's /metrics is on the public port: scrapers present ADMIN_SECRET; without it, production treats the
 * path as unknown (authentication answers) unless the operator opened it (METRICS_PUBLIC); elsewhere it is open.
 */
function metricsGuard(config: GatewayConfig) {
  if (config.ADMIN_SECRET) return requireAdmin(config.ADMIN_SECRET);
  if (config.NODE_ENV !== 'production' || config.METRICS_PUBLIC) return undefined;
  return (_req: Request, _res: Response, next: NextFunction) => next('route');
}

/** The public door: authenticate, rate-limit, authorize, parse JSON, then forward (once per idempotency key). */
export function createGatewayApp(deps: GatewayDeps): Express {
  const { config, orm, redis, routes } = deps;
  const upstream: Record<Exclude<ServiceName, 'gateway'>, string> = {
    ledger: config.LEDGER_URL,
    billing: config.BILLING_URL,
    insights: config.INSIGHTS_URL,
  };
  // built on first read, then kept as its JSON text: no start-up cost (≈0.2 s), nor the document and its
  // builder (joi-to-json, lodash) in the heap of a gateway nobody asks for it
  let openapiJson: Promise<string> | undefined;
  // one outage log per service: its first unreachable call and its return each log one line
  const outages = {
    ledger: new OutageLog(deps.logger, 'ledger'),
    billing: new OutageLog(deps.logger, 'billing'),
    insights: new OutageLog(deps.logger, 'insights'),
  };
  return createApp({
    service: 'gateway',
    logger: deps.logger,
    publicFacing: true,
    metricsGuard: metricsGuard(config),
    drain: deps.drain,
    // PostgreSQL only: rate limiting fails open without Redis (idempotency lives in each service's
    // PostgreSQL), so a Redis outage must not take every gateway pod out of the load balancer
    ready: async () => {
      await pingDatabase(orm);
    },
    mount: (app) => {
      app.get('/openapi.json', async (_req, res) => {
        openapiJson ??= import('./openapi.ts').then(({ API_VERSION, buildOpenApi }) =>
          JSON.stringify(buildOpenApi(routes, API_VERSION)),
        );
        res.set('Content-Type', 'application/json').send(await openapiJson);
      });
      app.use(docsRouter());
      if (deps.adminRouter) app.use('/admin', deps.adminRouter);
      // public routes (a bank's redirect of the customer's browser) carry no key: forwarded before authentication
      for (const route of routes) {
        if (!route.public || route.service === 'gateway') continue;
        app[route.method](
          route.path,
          requireJson,
          express.json({ limit: DEFAULT_BODY_LIMIT, strict: false, type: JSON_TYPES, verify: verifyJsonDepth }),
          proxyTo(upstream[route.service], config.INTERNAL_SECRET, config.UPSTREAM_TIMEOUT_MS, outages[route.service]),
        );
      }
      app.use(authenticate(orm, config.KEY_PEPPER, deps.keyCache));
      app.use(rateLimitPerKey(redis, config.RATE_LIMIT_WINDOW_MS, config.RATE_LIMIT_MAX, config.QUEUE_PREFIX));
      for (const route of routes) {
        const { service } = route;
        if (service === 'gateway' || route.public) continue;
        // a statement file (in its media types only) is passed on as it arrives, never held whole here
        const fileLimit = route.file ? bodyLimitBytes(route) : undefined;
        const forward = idempotent(
          proxyTo(upstream[service], config.INTERNAL_SECRET, config.UPSTREAM_TIMEOUT_MS, outages[service], fileLimit),
        );
        const limit = route.bodyLimit ?? DEFAULT_BODY_LIMIT;
        const body = route.file
          ? [requireMediaType(route.file.mediaTypes), refuseLargerThan(bodyLimitBytes(route))]
          : [requireJson, express.json({ limit, strict: false, type: JSON_TYPES, verify: verifyJsonDepth })];
        app[route.method](route.path, authorize(route), ...body, forward);
      }
    },
  });
}
