import { Migration } from '@mikro-orm/migrations';
import { defineEntity, type EntityManager, type MikroORM, p } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { newId } from '../db/base-entity.ts';
import { runSql } from '../db/sql.ts';
import { outboxLag, outboxPending } from '../telemetry/metrics.ts';
import { activeTraceparent } from '../telemetry/tracing.ts';
import type { ContextRef, DomainEvent, EventPayloads, EventType, QueueName } from './catalogue.ts';
import { jobsByQueue, type PendingRow } from './relay-jobs.ts';

/** Events waiting to be relayed; written in the same transaction as the change they describe. */
export const OutboxEventSchema = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    type: p.string(),
    /** `json`, not `jsonb`: written once and read once as text by the relay, never queried (`OutboxPayloadAsText`). */
    payload: p.json<DomainEvent | Record<string, unknown>>().columnType('json'),
    /** Set for a job sent to one queue (the type is then the job name); null for an event routed by type. */
    queue: p.string().nullable(),
    createdAt: p
      .datetime()
      .columnType('timestamptz(3)')
      .onCreate(() => new Date()),
    publishedAt: p.datetime().columnType('timestamptz(3)').nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    /** A relay is sending the row until then (`OutboxRelay`); after, another may claim it again. */
    claimedUntil: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});

/** The outbox table, created by each service's first migration in its own schema. */
export class CreateOutboxTable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table outbox_events (
      id uuid primary key,
      type text not null,
      payload jsonb not null,
      created_at timestamptz(3) not null default now(),
      published_at timestamptz(3),
      attempts int not null default 0,
      last_error text
    )`);
    this.addSql('create index outbox_events_pending_idx on outbox_events (created_at, id) where published_at is null');
  }
}

/** Lets outboxes created before jobs travelled through them carry a target queue. */
export class AddOutboxJobQueue extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table outbox_events add column queue text');
  }
}

/** The relay's claim on rows it is sending: a lease, so no row lock is held while Redis answers (rule 9). */
export class AddOutboxClaim extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table outbox_events add column claimed_until timestamptz(3)');
  }
}

/**
 * Leaves room in each page of the outbox so a claim's update (`claimed_until`, `attempts`: no index reads them)
 * is a HOT update: one index entry per event instead of two for the claims to step over until a vacuum.
 */
export class OutboxRoomForClaims extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table outbox_events set (fillfactor = 70)');
  }
}

/**
 * The payload is kept as the text it was written (`json`), compressed with lz4 where the server has it: no row
 * reads it in SQL, and building `jsonb` (binary, keys sorted) then turning it back into text for the relay cost a
 * rule's batch of 5,000 items 32–35 ms against 12–17 as `json` (docs/performance.md). The type change rewrites
 * the table under an exclusive lock: its size is the outbox's retention (7 days of events).
 */
export class OutboxPayloadAsText extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table outbox_events alter column payload type json using payload::json');
    // a server built without lz4 keeps its default compression (pglz)
    this.addSql(`do $$ begin
      alter table outbox_events alter column payload set compression lz4;
    exception when feature_not_supported then null;
    end $$`);
  }
}

/** A column the relay's byte budget read; kept so that databases migrated through it migrate the same way. */
export class OutboxPayloadBytes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table outbox_events add column payload_bytes int generated always as (octet_length(payload::text)) stored',
    );
  }
}

/**
 * The relay claims rows by count again (a rule's events are at most `MAX_CHANGED_PER_EVENT` transactions each, so a
 * pass's text stays bounded without measuring it): the length column goes.
 */
export class OutboxDropPayloadBytes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table outbox_events drop column if exists payload_bytes');
  }
}

/**
 * Queues a job inside the caller's transaction: it leaves only if the command commits, and survives a
 * Redis outage or a crash before the add. `jobId` becomes both the outbox id and the BullMQ job id.
 */
export function recordJob<T extends Record<string, unknown>>(
  em: EntityManager,
  queue: QueueName,
  name: string,
  data: T,
  jobId: string,
): void {
  const traceparent = activeTraceparent();
  const payload: Record<string, unknown> = traceparent ? { ...data, traceparent } : { ...data };
  em.create(OutboxEventSchema, { id: jobId, type: name, queue, payload, createdAt: new Date(), attempts: 0 });
}

/** Adds an event to the outbox inside the caller's transaction (the EntityManager flushes it with the change). */
export function recordEvent<T extends EventType>(
  em: EntityManager,
  type: T,
  context: ContextRef,
  data: EventPayloads[T],
): void {
  const { id, payload } = outboxEvent(type, context, data);
  em.create(OutboxEventSchema, { id, type, payload, queue: null, createdAt: new Date(), attempts: 0 });
}

/**
 * An event's outbox id and payload, for a write that inserts the outbox row in its own SQL statement
 * (`insert into outbox_events (id, type, payload) values (…)`, the other columns at their defaults) instead of
 * through the unit of work.
 */
export function outboxEvent<T extends EventType>(
  type: T,
  context: ContextRef,
  data: EventPayloads[T],
): { id: string; payload: DomainEvent<EventPayloads[T]> } {
  const id = newId();
  const payload: DomainEvent<EventPayloads[T]> = {
    event_id: id,
    type,
    occurred_at: new Date().toISOString(),
    context,
    data,
  };
  const traceparent = activeTraceparent();
  if (traceparent) payload.traceparent = traceparent;
  return { id, payload };
}

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`queue add timed out after ${ms} ms`)), ms).unref(),
    ),
  ]);

export interface OutboxRelayOptions {
  orm: MikroORM;
  service: string;
  queues: (name: QueueName) => Queue;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
  /** How long a claim keeps other relays off a batch whose sender died before marking it sent. */
  claimMs?: number;
}

/**
 * Moves outbox rows to BullMQ. A pass claims a batch in one short transaction (a lease, `claimed_until`) and commits,
 * adds its jobs to Redis holding no lock (architecture rule 9), then marks the rows sent. A failed add gives the
 * claim back at once; a relay that dies mid-pass leaves a claim that lapses after `claimMs`, and another relay
 * sends the rows again: the outbox id is the job id of a queued job and events are applied once through each
 * consumer's inbox, so a row relayed twice is still applied once. Rows stay pending while Redis is down and go
 * out when it is back.
 */
export class OutboxRelay {
  private readonly options: Required<OutboxRelayOptions>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private failures = 0;

  constructor(options: OutboxRelayOptions) {
    this.options = { intervalMs: 200, batchSize: 200, claimMs: 30_000, ...options };
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Runs soon instead of waiting for the next tick (called after a commit that wrote events). */
  kick(): void {
    if (!this.stopped && !this.running && this.failures === 0) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
      });
    }, delay);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let relayed = 0;
    try {
      relayed = await this.relayOnce();
      this.failures = 0;
    } catch (err) {
      this.failures += 1;
      this.options.logger.warn({ err, failures: this.failures }, 'outbox relay failed; will retry');
    }
    const backoff = this.failures ? Math.min(200 * 2 ** this.failures, 5000) : this.options.intervalMs;
    this.schedule(relayed >= this.options.batchSize ? 0 : backoff);
  }

  /** Relays one batch; returns how many events went out. */
  async relayOnce(): Promise<number> {
    const { orm, batchSize, claimMs, queues, service } = this.options;
    const em = orm.em.fork();
    // a short transaction: the rows' locks last as long as the claim's update, not the Redis call
    const rows = await em.transactional(async (tx) => {
      // an index scan in order marks the entries of rows already relayed as dead as it passes them, so the next
      // claims skip them; the bitmap scan the planner may prefer visits every one of them, every pass, until a
      // vacuum (7 ms a claim with 28,000 relayed rows and none pending, against 0.3 ms: docs/performance.md)
      await runSql(tx, 'set local enable_bitmapscan = off');
      return runSql<PendingRow>(
        tx,
        `with pending as (
         select id from outbox_events
          where published_at is null and (claimed_until is null or claimed_until < now())
          order by created_at, id limit ? for update skip locked
       ), claimed as (
         update outbox_events o set claimed_until = now() + make_interval(secs => ?), attempts = o.attempts + 1
           from pending where o.id = pending.id
         returning o.id, o.type, o.queue, o.payload, o.created_at
       )
       select * from claimed order by created_at, id`,
        [batchSize, claimMs / 1000],
      );
    });
    this.recordLag(rows);
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    try {
      for (const [name, jobs] of jobsByQueue(rows)) await withTimeout(queues(name).addBulk(jobs), 5000);
    } catch (err) {
      // the next pass may send them again at once; if this fails too, the claim lapses
      await runSql(em, 'update outbox_events set claimed_until = null where id in (?) and published_at is null', [
        ids,
      ]).catch(() => undefined);
      throw err;
    }
    await runSql(em, 'update outbox_events set published_at = now(), claimed_until = null where id in (?)', [ids]);
    outboxPending.set({ service }, 0);
    return rows.length;
  }

  private recordLag(rows: PendingRow[]): void {
    const oldest = rows[0]?.created_at;
    outboxLag.set({ service: this.options.service }, oldest ? (Date.now() - new Date(oldest).getTime()) / 1000 : 0);
    if (rows.length) outboxPending.set({ service: this.options.service }, rows.length);
  }
}
