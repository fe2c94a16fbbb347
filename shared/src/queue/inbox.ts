import { Migration } from '@mikro-orm/migrations';
import { defineEntity, type EntityManager, p } from '@mikro-orm/postgresql';

/** Events a consumer has applied; the primary key makes redelivery a no-op. */
export const ProcessedEventSchema = defineEntity({
  name: 'ProcessedEvent',
  tableName: 'processed_events',
  properties: {
    eventId: p.uuid().primary(),
    consumer: p.string().primary(),
    type: p.string(),
    processedAt: p
      .datetime()
      .columnType('timestamptz(3)')
      .onCreate(() => new Date()),
  },
});

export class CreateInboxTable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table processed_events (
      event_id uuid not null,
      consumer text not null,
      type text not null,
      processed_at timestamptz(3) not null default now(),
      primary key (event_id, consumer)
    )`);
  }
}

const INSERT_INBOX_ROW =
  'insert into processed_events (event_id, consumer, type) values (?, ?, ?) on conflict do nothing returning event_id';

/**
 * Applies an event at most once per consumer: the inbox row and the effect commit together, and a
 * concurrent duplicate waits on the row lock and then sees it done. Without an effect (most events: no
 * limit touched, nothing to record) the inbox row is the whole work: one statement, no transaction around it.
 */
export async function handleOnce(
  em: EntityManager,
  event: { event_id: string; type: string },
  consumer: string,
  apply?: (tx: EntityManager) => Promise<void>,
): Promise<boolean> {
  const values = [event.event_id, consumer, event.type];
  if (!apply) {
    const inserted: unknown[] = await em.getConnection().execute(INSERT_INBOX_ROW, values, 'all');
    return inserted.length > 0;
  }
  return em.transactional(async (tx) => {
    const inserted: unknown[] = await tx
      .getConnection()
      .execute(INSERT_INBOX_ROW, values, 'all', tx.getTransactionContext());
    if (inserted.length === 0) return false;
    await apply(tx);
    return true;
  });
}

/**
 * Records events that had nothing to apply as handled by `consumer`, in one statement for the whole batch
 * (duplicates and events already recorded are skipped).
 */
export async function recordHandled(
  em: EntityManager,
  events: Array<{ event_id: string; type: string }>,
  consumer: string,
): Promise<void> {
  if (events.length === 0) return;
  // one order of keys for every batch: two batches holding the same events cannot deadlock on them
  const sorted = [...events].sort((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
  const rows = sorted.map(() => '(?, ?, ?)').join(', ');
  await em.getConnection().execute(
    `insert into processed_events (event_id, consumer, type) values ${rows} on conflict do nothing`,
    sorted.flatMap((event) => [event.event_id, consumer, event.type]),
    'run',
  );
}
