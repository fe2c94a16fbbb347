import type { Worker } from 'bullmq';
import { QUEUES, type QueueName } from '../queue/catalogue.ts';
import { CreateInboxTable } from '../queue/inbox.ts';
import { pruneOlderThan, type RetentionTable, retentionDeleted, retentionLastRun } from '../queue/retention.ts';
import type { ServiceDefinition, ServiceRuntime } from './start-service.ts';

/** Every hour at :23 UTC; BullMQ runs a scheduled job once whatever the number of worker replicas. */
export const RETENTION_PATTERN = '23 * * * *';

/** The tables a service has: an outbox when it writes events, an inbox when it migrates one. */
export function retentionTablesOf(definition: Pick<ServiceDefinition, 'hasOutbox' | 'migrations'>): RetentionTable[] {
  const tables: RetentionTable[] = [];
  if (definition.hasOutbox) tables.push('outbox');
  const isInbox = (migration: (typeof definition.migrations)[number]) =>
    migration === CreateInboxTable || ('class' in migration && migration.class === CreateInboxTable);
  if (definition.migrations.some(isInbox)) tables.push('inbox');
  return tables;
}

/**
 * Starts the service's retention worker (queue `<service>.retention`) and its hourly scheduler:
 * relayed outbox rows older than OUTBOX_RETENTION_DAYS and inbox rows older than
 * INBOX_RETENTION_DAYS are deleted, counted in retention_deleted_rows_total.
 */
export async function startRetentionWorker(runtime: ServiceRuntime, tables: RetentionTable[]): Promise<Worker> {
  const queue = `${runtime.name}.retention` as QueueName;
  if (!(Object.values(QUEUES) as string[]).includes(queue)) throw new Error(`no retention queue for ${runtime.name}`);
  const { config, logger, orm, name: service } = runtime;
  const days: Record<RetentionTable, number> = {
    outbox: config.OUTBOX_RETENTION_DAYS,
    inbox: config.INBOX_RETENTION_DAYS,
  };
  const worker = runtime.startWorker(
    queue,
    async () => {
      const deleted: Partial<Record<RetentionTable, number>> = {};
      for (const table of tables) {
        deleted[table] = await pruneOlderThan(orm.em.fork(), table, days[table]);
        retentionDeleted.inc({ service, table }, deleted[table]);
        retentionLastRun.set({ service, table }, Date.now() / 1000);
      }
      logger.info({ deleted, days }, 'retention: old outbox/inbox rows deleted');
      return deleted;
    },
    1,
  );
  await runtime.queues
    .get(queue)
    .upsertJobScheduler('retention', { pattern: RETENTION_PATTERN, tz: 'UTC' }, { name: 'prune', data: {} });
  return worker;
}
