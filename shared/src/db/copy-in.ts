import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { runSql } from './sql.ts';

/** The ORM pools' clients by the PostgreSQL process each is connected to. */
const clientsOf = new WeakMap<pg.Pool, Map<number, pg.PoolClient>>();

/** node-pg keeps the server process of a connection (its backend key) here; @types/pg does not declare it. */
const pidOf = (client: pg.PoolClient) => (client as pg.PoolClient & { processID: number | null }).processID;

/** `initOrm`'s `driverOptions.onPoolCreated`: keeps the pool's clients by server process, as they come and go. */
export function trackPoolClients(pool: pg.Pool): void {
  const clients = new Map<number, pg.PoolClient>();
  clientsOf.set(pool, clients);
  pool.on('connect', (client) => {
    const pid = pidOf(client);
    if (pid !== null) clients.set(pid, client);
  });
  pool.on('remove', (client) => {
    const pid = pidOf(client);
    if (pid !== null && clients.get(pid) === client) clients.delete(pid);
  });
}

/**
 * Runs `copy … from stdin` with `chunks` as its data on the connection of the transaction open on `em`, so the rows
 * commit or roll back with everything else it wrote. PostgreSQL writes a COPY's rows many to a page at once, where
 * an INSERT of the same rows goes one by one. `chunks` gets the transaction's `now()` as `stamp`, for rows that
 * record it.
 */
export async function copyIn(
  em: EntityManager,
  sql: string,
  chunks: (stamp: string) => Iterable<string>,
): Promise<number> {
  if (!em.getTransactionContext()) throw new Error('copyIn runs inside a transaction');
  const [held] = await runSql<{ pid: number; stamp: string }>(
    em,
    `select pg_backend_pid() as pid, to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as stamp`,
  );
  const pool = await em.getConnection().getNativeClient();
  // the transaction's connection is checked out to this transaction: nothing else sends on it meanwhile
  const client = clientsOf.get(pool)?.get(held.pid);
  if (!client) throw new Error('the transaction’s connection is not one of the tracked pool’s');
  const started = Date.now();
  const copy = client.query(copyFrom(sql));
  await pipeline(Readable.from(chunks(held.stamp)), copy);
  em.config.getLogger().logQuery({ query: sql, took: Date.now() - started, level: 'info' });
  return copy.rowCount;
}
