import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicRoutes } from '@finance/shared/contracts/index';
import { closeOrm, initOrm, migrateSchema } from '@finance/shared/db/orm';
import { type DrainState, drainAndClose, listen } from '@finance/shared/http/server';
import { createLogger, type Logger } from '@finance/shared/logger';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { QueueRegistry } from '@finance/shared/queue/queues';
import { createRedis } from '@finance/shared/queue/redis';
import { flushTelemetry, type Telemetry } from '@finance/shared/telemetry/tracing';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GatewayConfig } from './config.ts';
import { AccessChangeListener } from './data-access/access-changes.ts';
import { gatewayEntities } from './data-access/entities.ts';
import { gatewayMigrations } from './data-access/migrations/index.ts';
import { KeyCache } from './domain/key-cache.ts';
import { createGatewayApp } from './entry-points/http/app.ts';
import { queueDashboardRouter } from './entry-points/http/queue-dashboard.ts';

export const GATEWAY_SCHEMA = 'gateway';

export interface RunningService {
  name: string;
  url: string;
  orm: MikroORM;
  server: Server | null;
  stop(): Promise<void>;
}

export async function openGatewayOrm(config: Pick<GatewayConfig, 'DATABASE_URL'>, onQuery?: (sql: string) => void) {
  return initOrm({
    schema: GATEWAY_SCHEMA,
    clientUrl: config.DATABASE_URL,
    entities: gatewayEntities,
    migrations: gatewayMigrations,
    onQuery,
  });
}

/** Starts the gateway: migrations, Redis for rate limits, the public HTTP server. */
export async function startGateway(
  config: GatewayConfig,
  logger: Logger = createLogger('gateway', config.LOG_LEVEL),
  options: { telemetry?: Telemetry | null } = {},
): Promise<RunningService> {
  const orm = await openGatewayOrm(config);
  if (config.MIGRATE_ON_START) await migrateSchema(orm, config.DATABASE_URL, GATEWAY_SCHEMA);
  // commands wait for the connection (the limiter loads its script at start) but give up after one retry
  const redis = createRedis(config.REDIS_URL, 'producer', { enableOfflineQueue: true });
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  // every queue of the catalogue, for the dashboard and the queue_depth gauge
  const queues = new QueueRegistry(redis, config.QUEUE_PREFIX);
  for (const name of Object.values(QUEUES)) queues.get(name);
  queues.startDepthMetrics();
  const adminRouter = await queueDashboardRouter(config.ADMIN_SECRET, queues);
  const drain: DrainState = { draining: false };
  // verified keys are cached only while this listener is connected: a revocation empties every replica's cache
  const keyCache = new KeyCache();
  const accessChanges = new AccessChangeListener(config.DATABASE_URL, GATEWAY_SCHEMA, {
    onListening: () => keyCache.enable(),
    onChange: () => keyCache.invalidate(),
    onLost: () => keyCache.disable(),
  });
  await accessChanges.start();
  const app = createGatewayApp({ config, orm, redis, logger, routes: publicRoutes, adminRouter, drain, keyCache });
  const server = await listen(app, config.PORT);
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, 'gateway listening');
  return {
    name: 'gateway',
    url: `http://127.0.0.1:${port}`,
    orm,
    server,
    async stop() {
      await drainAndClose(server, drain, { delayMs: config.SHUTDOWN_DELAY_MS, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
      await accessChanges.stop();
      await queues.close();
      redis.disconnect();
      if (!(await closeOrm(orm))) logger.warn('database pool still had a connection checked out; closed without it');
      // last: the spans of the requests drained above are exported before the process exits
      await flushTelemetry(options.telemetry, config.SHUTDOWN_TIMEOUT_MS, logger);
    },
  };
}
