import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors/app-error.ts';

/** How long a key is remembered; older records are ignored and swept. */
export const IDEMPOTENCY_TTL_HOURS = 24;

export const KEY_REUSED = 'Chave de idempotência reutilizada com outra requisição';
export const KEY_IN_FLIGHT = 'Requisição com esta chave de idempotência ainda em andamento';
export const KEY_ANSWER_LOST =
  'Requisição com esta chave de idempotência já foi executada, mas sua resposta se perdeu; consulte o recurso';

/**
 * The write a request with `Idempotency-Key` is running: who sent it (the API key), the key, what the
 * request was (fingerprint) and a claim id telling this request's record from a concurrent twin's.
 */
export interface IdempotencyScope {
  keyId: string;
  key: string;
  fingerprint: string;
  claim: string;
  /** The record committed with one of this request's transactions (so the answer updates it). */
  written: boolean;
  /** The transaction that wrote the record (or its answer) and what it keeps, until it commits. */
  pending: { trx: unknown; answer: KeptAnswer | null } | null;
  /** Writes this request sent to other services, numbering their derived keys (`<key> #<n>`). */
  calls: number;
  /** How many of those the other service answered as replays (its write committed for an earlier attempt)… */
  replayed: number;
  /** …and how many it answered with a write it committed just now. */
  committedElsewhere: number;
  /** The answer is on its way: timers the request started later (a relay it woke) no longer join. */
  closed: boolean;
  /** The route's success status, for an answer kept before it is sent (`keepAnswer`). */
  successStatus: number;
  /** What the next transaction to commit keeps in the record: the answer, or the point to rebuild it from. */
  answer: KeptAnswer | null;
  /** What the record holds since a commit of this request, if any. */
  kept: KeptAnswer | null;
  /** A retry whose first attempt committed a recovery point: the route rebuilds the answer from it. */
  recovering?: unknown;
  /** Runs right after the commit that wrote the record (a test hook; see `idempotencyTestHooks.afterCommit`). */
  afterCommit?: () => Promise<void>;
}

/**
 * What a record keeps of its request: the answer (status and JSON text), or, for a request whose answer comes
 * only after the commit (it waits for a job, or for another service), the recovery point its route rebuilds the
 * answer from (JSON text).
 */
export type KeptAnswer = { status: number; body: string | null } | { recovery: string };

/** The scope of the request being served; transactions committed inside it carry its record. */
export const idempotencyScope = new AsyncLocalStorage<IdempotencyScope | null>();

export interface StoredAnswer {
  fingerprint: string;
  claim: string;
  status: number | null;
  body: string | null;
  recovery: string | null;
  ageSeconds: number;
}

export class CreateIdempotencyKeysTable extends Migration {
  override async up(): Promise<void> {
    // one row per API key and Idempotency-Key; status/body stay null between the commit and the answer
    this.addSql(`create table idempotency_keys (
      key_id text not null,
      idempotency_key text not null,
      fingerprint text not null,
      claim uuid not null,
      status smallint,
      body text,
      created_at timestamptz(3) not null default now(),
      answered_at timestamptz(3),
      primary key (key_id, idempotency_key)
    )`);
    this.addSql('create index idempotency_keys_created_at on idempotency_keys (created_at)');
  }
}

/** The point a retry rebuilds an answer from, kept by the write's commit when the answer comes after it. */
export class AddIdempotencyRecoveryPoint extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table idempotency_keys add column recovery text');
  }
}

/**
 * Runs `work` outside the request's idempotency record: for bookkeeping writes that are not the request's
 * outcome (a lease taken and released around a call to another service). The request's record then lands with
 * its answer, and a retry whose first answer was lost runs again, replaying the other service's writes through
 * their derived keys instead of finding a record without answer.
 */
export function outsideIdempotencyRecord<T>(work: () => Promise<T>): Promise<T> {
  return idempotencyScope.run(null, work);
}

/** Raised inside a commit when a concurrent request with the same key committed first: this one rolls back. */
export class IdempotencyRaceLost extends AppError {
  constructor() {
    super(409, KEY_IN_FLIGHT);
  }
}

// a transaction that changed nothing (no transaction id assigned: no row written or locked) carries no record
const INSERT = `with wrote as (select txid_current_if_assigned() is not null as yes),
  inserted as (
    insert into idempotency_keys (key_id, idempotency_key, fingerprint, claim, status, body, recovery, answered_at)
      select ?, ?, ?, ?, ?::smallint, ?, ?, case when ?::smallint is null then null else now() end from wrote where yes
    on conflict (key_id, idempotency_key) do nothing returning claim)
  select (select yes from wrote) as wrote, (select claim from inserted) as claim`;

const COMPLETE = `update idempotency_keys
  set status = ?::smallint, body = ?, recovery = ?, answered_at = case when ?::smallint is null then null else now() end
  where key_id = ? and idempotency_key = ? and claim = ?`;

/** The record's columns for what a request keeps: status, body, recovery point. */
const columnsOf = (kept: KeptAnswer | null): [number | null, string | null, string | null] =>
  !kept ? [null, null, null] : 'recovery' in kept ? [null, null, kept.recovery] : [kept.status, kept.body, null];

/**
 * Joins every outermost transaction committed inside an idempotency scope: the first one that wrote
 * something inserts the key's record, with the answer (or recovery point) the request keeps by then
 * (`keepAnswer`), so the write, the record and its answer commit (or roll back) together; a later transaction
 * that keeps something new updates the record. A twin request holding the same key waits on the primary key,
 * then finds it taken and rolls its own write back.
 */
export class IdempotencySubscriber implements EventSubscriber {
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const scope = idempotencyScope.getStore();
    const trx = args.transaction as object | undefined;
    if (!scope || scope.closed || !trx || 'savepointName' in trx) return;
    const answer = scope.answer;
    const [status, body, recovery] = columnsOf(answer);
    const connection = args.em.getConnection();
    if (scope.written) {
      if (!answer || answer === scope.kept) return;
      const where = [scope.keyId, scope.key, scope.claim];
      await connection.execute(COMPLETE, [status, body, recovery, status, ...where], 'run', trx);
    } else {
      const [row] = await connection.execute<Array<{ wrote: boolean; claim: string | null }>>(
        INSERT,
        [scope.keyId, scope.key, scope.fingerprint, scope.claim, status, body, recovery, status],
        'all',
        trx,
      );
      if (!row.wrote) return;
      if (row.claim === null) throw new IdempotencyRaceLost();
    }
    scope.pending = { trx, answer };
  }

  async afterTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const scope = idempotencyScope.getStore();
    const pending = scope?.pending;
    if (!scope || !pending || pending.trx !== args.transaction) return;
    const first = !scope.written;
    scope.written = true;
    scope.kept = pending.answer ?? scope.kept;
    scope.pending = null;
    if (first) await scope.afterCommit?.();
  }

  async afterTransactionRollback(args: TransactionEventArgs): Promise<void> {
    const scope = idempotencyScope.getStore();
    const trx = args.transaction as object | undefined;
    // what was kept inside a transaction that rolled back was never the request's
    if (scope && trx && !('savepointName' in trx)) {
      scope.answer = scope.kept;
      if (scope.pending?.trx === trx) scope.pending = null;
    }
  }
}

/** The live record of a key (expired ones are deleted on the way). */
export async function findAnswer(em: EntityManager, keyId: string, key: string): Promise<StoredAnswer | null> {
  const connection = em.getConnection();
  await connection.execute(
    `delete from idempotency_keys where key_id = ? and idempotency_key = ?
       and created_at < now() - make_interval(hours => ?)`,
    [keyId, key, IDEMPOTENCY_TTL_HOURS],
    'run',
  );
  const [row] = await connection.execute<
    Array<{
      fingerprint: string;
      claim: string;
      status: number | null;
      body: string | null;
      recovery: string | null;
      age: string;
    }>
  >(
    `select fingerprint, claim, status, body, recovery, extract(epoch from now() - created_at)::float8 as age
       from idempotency_keys where key_id = ? and idempotency_key = ?`,
    [keyId, key],
  );
  return row
    ? {
        fingerprint: row.fingerprint,
        claim: row.claim,
        status: row.status,
        body: row.body,
        recovery: row.recovery,
        ageSeconds: Number(row.age),
      }
    : null;
}

/**
 * Keeps the answer: completes (or replaces) this request's own record, or inserts it when the request committed
 * nothing here (a rejection, or a write another service made). Never touches a twin's record.
 */
export async function saveAnswer(em: EntityManager, scope: IdempotencyScope, status: number, body: string | null) {
  await em.getConnection().execute(
    `insert into idempotency_keys as k (key_id, idempotency_key, fingerprint, claim, status, body, answered_at)
       values (?, ?, ?, ?, ?, ?, now())
     on conflict (key_id, idempotency_key) do update set status = excluded.status, body = excluded.body,
       recovery = null, answered_at = excluded.answered_at
     where k.claim = excluded.claim`,
    [scope.keyId, scope.key, scope.fingerprint, scope.claim, status, body],
    'run',
  );
}

/** Deletes the records older than the TTL; returns how many. */
export async function sweepAnswers(em: EntityManager): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(
      'delete from idempotency_keys where created_at < now() - make_interval(hours => ?)',
      [IDEMPOTENCY_TTL_HOURS],
      'run',
    );
  return result.affectedRows ?? 0;
}
