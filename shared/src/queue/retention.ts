import type { EntityManager } from '@mikro-orm/postgresql';
import { Counter, Gauge } from 'prom-client';
import { registry } from '../telemetry/metrics.ts';

/** The tables a service prunes: its outbox (relayed rows only) and its inbox of processed events. */
export type RetentionTable = 'outbox' | 'inbox';

export const retentionDeleted = new Counter({
  name: 'retention_deleted_rows_total',
  help: 'Outbox and inbox rows deleted by the retention job, by service and table',
  labelNames: ['service', 'table'],
  registers: [registry],
});

export const retentionLastRun = new Gauge({
  name: 'retention_last_run_timestamp_seconds',
  help: 'Unix time the retention job last finished, by service and table',
  labelNames: ['service', 'table'],
  registers: [registry],
});

// Unpublished outbox rows are never deleted, whatever their age: they still have to leave.
const DELETE_SQL: Record<RetentionTable, string> = {
  outbox: `delete from outbox_events where id in (
             select id from outbox_events
              where published_at is not null and published_at < now() - make_interval(days => ?)
              limit ?)`,
  inbox: `delete from processed_events where ctid in (
            select ctid from processed_events
             where processed_at < now() - make_interval(days => ?)
             limit ?)`,
};

/**
 * Deletes the table's rows older than `days`, in batches of `batchSize` (each its own short
 * statement, so no long lock and no long transaction). Returns how many rows went.
 */
export async function pruneOlderThan(
  em: EntityManager,
  table: RetentionTable,
  days: number,
  batchSize = 5000,
): Promise<number> {
  const connection = em.getConnection();
  let total = 0;
  for (;;) {
    const result = (await connection.execute(DELETE_SQL[table], [days, batchSize], 'run')) as {
      affectedRows?: number;
    };
    const deleted = result.affectedRows ?? 0;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
