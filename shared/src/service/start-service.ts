import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Processor, Worker } from 'bullmq';
import { type Express, json } from 'express';
import type { Redis } from 'ioredis';
import type { CommonConfig } from '../config/load-config.ts';
import { publicRoutes } from '../contracts/index.ts';
import { internalRoutes } from '../contracts/internal/index.ts';
import { type AnyRoute, bodyLimitBytes, type ServiceName } from '../contracts/route.ts';
import { closeOrm, initOrm, type MigrationList, migrateSchema, type OrmOptions, pingDatabase } from '../db/orm.ts';
import { createApp } from '../http/create-app.ts';
import { idempotentWrites } from '../http/idempotency.ts';
import { verifyJsonDepth } from '../http/json-depth.ts';
import { type FileStore, receiveFile } from '../http/received-file.ts';
import { type DrainState, drainAndClose, listen } from '../http/server.ts';
import { requireContext, unmountedContracts } from '../http/service-routes.ts';
import { createLogger, type Logger } from '../logger.ts';
import { EVENT_ROUTES, QUEUES, type QueueName } from '../queue/catalogue.ts';
import { OutboxRelay } from '../queue/outbox.ts';
import { QueueRegistry, startWorker, type WorkerOptions } from '../queue/queues.ts';
import { createRedis, whenConnected } from '../queue/redis.ts';
import { flushTelemetry, type Telemetry } from '../telemetry/tracing.ts';
import { retentionTablesOf, startRetentionWorker } from './retention-worker.ts';

export interface ServiceConfig extends CommonConfig {
  PORT: number;
}

/** What a service's routes and workers get: its own config (typed `C`), ORM, queues and logger. */
export interface ServiceRuntime<C extends ServiceConfig = ServiceConfig> {
  name: string;
  config: C;
  orm: MikroORM;
  logger: Logger;
  queues: QueueRegistry;
  /** Connection for workers (blocking commands, retries forever). */
  workerRedis: () => Redis;
  /** Present when the service writes domain events. */
  outbox: OutboxRelay | null;
  /** Starts a worker on its own connection with this environment's queue prefix. */
  startWorker: <T>(
    name: QueueName,
    processor: Processor<T>,
    concurrency?: number,
    lock?: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'>,
  ) => Worker<T>;
}

export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  /** Also the owner named by its contracts: at start it must serve every public and internal one it owns. */
  name: ServiceName;
  schema: string;
  entities: OrmOptions['entities'];
  migrations: MigrationList;
  hasOutbox?: boolean;
  mountRoutes: (app: Express, runtime: ServiceRuntime<C>) => void;
  /** Where the bodies of its file routes (`RouteContract.file`) are stored as they arrive; required when it has one. */
  fileStore?: (runtime: ServiceRuntime<C>) => FileStore;
  startWorkers?: (runtime: ServiceRuntime<C>) => Promise<Array<Worker | { close(): Promise<void> }>>;
}

export interface RunningService<C extends ServiceConfig = ServiceConfig> {
  name: string;
  url: string;
  orm: MikroORM;
  runtime: ServiceRuntime<C>;
  server: Server;
  stop(): Promise<void>;
}

/**
 * Starts one service in the role its config asks for: migrations, HTTP (refusing unsigned contexts),
 * the outbox relay and its workers; `stop()` drains them in order for a clean SIGTERM.
 */
export async function startService<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  options: {
    logger?: Logger;
    onQuery?: (sql: string) => void;
    /** The process's tracing (`startTelemetry`), flushed at the end of `stop()`. */
    telemetry?: Telemetry | null;
  } = {},
): Promise<RunningService<C>> {
  const logger = options.logger ?? createLogger(definition.name, config.LOG_LEVEL);
  const orm = await initOrm({
    schema: definition.schema,
    clientUrl: config.DATABASE_URL,
    entities: definition.entities,
    migrations: definition.migrations,
    onQuery: options.onQuery,
  });
  if (config.MIGRATE_ON_START) await migrateSchema(orm, config.DATABASE_URL, definition.schema);

  const consumes = workerQueueFilter(config.WORKER_QUEUES);
  const producerRedis = createRedis(config.REDIS_URL, 'producer');
  producerRedis.on('error', (err) => logger.debug({ err: err.message }, 'redis producer connection error'));
  // a service whose start returns is ready when Redis is up; when it is not, the outbox keeps the events
  await whenConnected(producerRedis, 5000).catch((err) => logger.warn({ err: err.message }, 'starting without redis'));
  const workerConnections: Redis[] = [];
  const runtime: ServiceRuntime<C> = {
    name: definition.name,
    config,
    orm,
    logger,
    queues: new QueueRegistry(producerRedis, config.QUEUE_PREFIX),
    workerRedis: () => {
      const connection = createRedis(config.REDIS_URL, 'worker');
      connection.on('error', (err) => logger.debug({ err: err.message }, 'redis worker connection error'));
      workerConnections.push(connection);
      return connection;
    },
    outbox: null,
    startWorker: (name, processor, concurrency, lock) => {
      runtime.queues.get(name); // a consumed queue shows in this service's queue_depth
      return startWorker(name, processor, {
        connection: runtime.workerRedis(),
        logger,
        prefix: config.QUEUE_PREFIX,
        concurrency: concurrency ?? config.WORKER_CONCURRENCY,
        autorun: consumes(name),
        ...lock,
      });
    },
  };

  const runsWorkers = config.ROLE !== 'api';
  if (definition.hasOutbox) {
    runtime.outbox = new OutboxRelay({
      orm,
      service: definition.name,
      queues: runtime.queues.get,
      logger,
      intervalMs: config.OUTBOX_POLL_MS,
    });
    if (runsWorkers && consumes('outbox')) runtime.outbox.start();
    // the queues its relay may produce to show in queue_depth before the first event
    for (const name of new Set(Object.values(EVENT_ROUTES).flat())) runtime.queues.get(name);
  }
  const workers = runsWorkers && definition.startWorkers ? await definition.startWorkers(runtime) : [];
  const retention = retentionTablesOf(definition);
  if (runsWorkers && retention.length > 0) workers.push(await startRetentionWorker(runtime, retention));
  runtime.queues.startDepthMetrics();
  if (runsWorkers && config.WORKER_QUEUES) logger.info({ queues: config.WORKER_QUEUES }, 'worker group');

  const drain: DrainState = { draining: false };
  /** Closes what the start opened, in order: workers, outbox, queues, Redis, the database, then telemetry. */
  const release = async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await runtime.outbox?.stop();
    await runtime.queues.close();
    for (const connection of workerConnections) connection.disconnect();
    producerRedis.disconnect();
    if (!(await closeOrm(orm))) logger.warn('database pool still had a connection checked out; closed without it');
    // last: the spans of the requests and jobs drained above are exported before the process exits
    await flushTelemetry(options.telemetry, config.SHUTDOWN_TIMEOUT_MS, logger);
  };
  let app: Express;
  try {
    app = createApp({
      service: definition.name,
      logger,
      drain,
      ready: async () => {
        await pingDatabase(orm);
        await whenConnected(producerRedis, 2000);
        if ((await producerRedis.ping()) !== 'PONG') throw new Error('redis not ready');
      },
      mount: (express) => {
        if (config.ROLE === 'worker') return;
        express.use(requireContext(config.INTERNAL_SECRET));
        // the gateway already enforced the public size limits; this bounds internal calls
        express.use(json({ limit: '12mb', verify: verifyJsonDepth }));
        // a file is stored as it arrives, hashed on the way, before idempotency fingerprints the body
        for (const route of fileRoutesOf(definition.name)) {
          if (!definition.fileStore) throw new Error(`${definition.name} has file routes but no fileStore`);
          const store = definition.fileStore(runtime);
          express[route.method](route.path, receiveFile(store, route.file.mediaTypes, bodyLimitBytes(route), logger));
        }
        express.use(idempotentWrites(orm, logger, definition.name));
        definition.mountRoutes(express, runtime);
        refuseUnservedContracts(express, definition.name);
      },
    });
  } catch (err) {
    await release();
    throw err;
  }
  const server = await listen(app, config.PORT);
  const { port } = server.address() as AddressInfo;
  logger.info({ port, role: config.ROLE }, `${definition.name} listening`);

  let stopping: Promise<void> | null = null;
  return {
    name: definition.name,
    url: `http://127.0.0.1:${port}`,
    orm,
    runtime,
    server,
    stop() {
      // a second SIGTERM (or a test's cleanup) waits for the same drain instead of closing twice
      stopping ??= (async () => {
        await drainAndClose(server, drain, {
          delayMs: config.SHUTDOWN_DELAY_MS,
          timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        });
        await release();
      })();
      return stopping;
    },
  };
}

/** The public routes of a service whose body is a file. */
const fileRoutesOf = (service: ServiceName) =>
  publicRoutes.filter(
    (route): route is AnyRoute & { file: NonNullable<AnyRoute['file']> } => route.service === service && !!route.file,
  );

/** A process serving HTTP answers every contract (public or internal) its service owns, or it does not start. */
export function refuseUnservedContracts(app: Express, service: ServiceName): void {
  const missing = unmountedContracts(app, service, [...publicRoutes, ...internalRoutes]);
  if (missing.length > 0) {
    throw new Error(`${service} serves no handler for ${missing.length} of its route(s): ${missing.join(', ')}`);
  }
}

/**
 * Which queues a worker process consumes (WORKER_QUEUES, comma-separated; `outbox` is the relay): every one when
 * unset; every one but those named with a leading `-` (`-ledger.statement-files`: another process reads the files).
 * An unknown name refuses the start, so a typo cannot leave a queue unserved; so does a list mixing both forms.
 */
export function workerQueueFilter(list: string | undefined): (name: string) => boolean {
  if (!list) return () => true;
  const given = list.split(',').map((name) => name.trim());
  const excluded = new Set(given.filter((name) => name.startsWith('-')).map((name) => name.slice(1)));
  const names = new Set(given.filter((name) => !name.startsWith('-')));
  if (excluded.size > 0 && names.size > 0) {
    throw new Error(`WORKER_QUEUES: name the queues to consume, or those to leave out with '-', not both (${list})`);
  }
  const known = new Set<string>([...Object.values(QUEUES), 'outbox']);
  const unknown = [...names, ...excluded].filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`WORKER_QUEUES: unknown queue(s) ${unknown.join(', ')}`);
  return excluded.size > 0 ? (name) => !excluded.has(name) : (name) => names.has(name);
}
