import { Migrator } from '@mikro-orm/migrations';
import { type EntitySchema, MikroORM, type Options } from '@mikro-orm/postgresql';
import pg from 'pg';
import { trackPoolClients } from './copy-in.ts';
import { ensureDatabase } from './ensure-database.ts';
import { IdempotencySubscriber } from './idempotency-records.ts';

export { ensureDatabase };

/** Migrations listed by name and class, applied in order. */
export type MigrationList = NonNullable<NonNullable<Options['migrations']>['migrationsList']>;

export interface OrmOptions {
  schema: string;
  clientUrl: string;
  // biome-ignore lint/suspicious/noExplicitAny: entity schemas of any shape
  entities: Array<EntitySchema<any> | (new (...args: never[]) => object)>;
  migrations: MigrationList;
  poolMax?: number;
  /** Called with every SQL statement; tests count queries with it. */
  onQuery?: (sql: string) => void;
}

/**
 * The settings of every connection to a service's schema (libpq `options`): unqualified SQL resolves to the schema,
 * and the planner prices a random page read at 1.1, not PostgreSQL's default 4 (spinning disks). With thousands of
 * contexts, a large one (5 % of the transactions) was read by scanning the whole table (800 ms) where its index
 * reads 5 % of the pages (245 ms): storage is SSD or cache (docs/architecture.md, rule 10).
 */
export const sessionOptions = (schema: string) => `-c search_path=${schema},public -c random_page_cost=1.1`;

/** Starts MikroORM on one service's schema; entities and migrations are listed explicitly, never discovered. */
export async function initOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: options.clientUrl,
    schema: options.schema,
    entities: options.entities,
    extensions: [Migrator],
    // a transaction committed for a request with Idempotency-Key records the key with it
    subscribers: [new IdempotencySubscriber()],
    ensureDatabase: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: options.poolMax ?? 10 },
    driverOptions: {
      // a bulk write's COPY runs on its transaction's own connection (copy-in.ts)
      onPoolCreated: trackPoolClients,
      options: sessionOptions(options.schema),
      application_name: `finance-${options.schema}`,
    },
    migrations: {
      migrationsList: options.migrations,
      schema: options.schema,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    debug: options.onQuery ? ['query'] : false,
    logger: options.onQuery ? (message: string) => options.onQuery?.(message) : undefined,
  });
}

/** Creates the database if needed and applies a schema's migrations under an advisory lock, so replicas starting together migrate once. */
export async function migrateSchema(orm: MikroORM, clientUrl: string, schema: string): Promise<void> {
  // a service started on its own (no start script, no migrations Job) still finds its database
  await ensureDatabase(clientUrl);
  const lock = new pg.Client({ connectionString: clientUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await lock.query(`create schema if not exists "${schema}"`);
    await orm.migrator.up();
  } finally {
    await lock.query('select pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await lock.end();
  }
}

/**
 * Closes the ORM's pool, waiting at most `timeoutMs`: a connection still checked out (a transaction
 * whose ROLLBACK failed on a connection PostgreSQL dropped is never returned to the pool) must not
 * hold a shutdown past its grace period. Resolves false when it gave up waiting.
 */
export async function closeOrm(orm: MikroORM, timeoutMs = 5000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([orm.close().then(() => true as const), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

/** Readiness: one round trip to PostgreSQL (`select 1`); rejects when the database does not answer. */
export async function pingDatabase(orm: MikroORM): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}
