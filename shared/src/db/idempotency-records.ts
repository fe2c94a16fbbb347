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
  /** The transaction the record was inserted into, until it commits. */
  pending: unknown;
  /** Writes this request sent to other services, numbering their derived keys (`<key> #<n>`). */
  calls: number;
  /** The answer is on its way: timers the request started later (a relay it woke) no longer join. */
  closed: boolean;
}

/** The scope of the request being served; transactions committed inside it carry its record. */
export const idempotencyScope = new AsyncLocalStorage<IdempotencyScope | null>();

export interface StoredAnswer {
  fingerprint: string;
  claim: string;
  status: number | null;
  body: string | null;
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

/**
 * Runs `work` outside the request's idempotency record: for bookkeeping writes that are not the request's
 * outcome (a lease taken and released around a call to another service, an event announcing what that service
 * did). The request's record then lands with its answer, and a retry whose first answer was lost runs again,
 * replaying the other service's writes through their derived keys instead of finding a record without answer.
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
    insert into idempotency_keys (key_id, idempotency_key, fingerprint, claim)
      select ?, ?, ?, ? from wrote where yes
    on conflict (key_id, idempotency_key) do nothing returning claim)
  select (select yes from wrote) as wrote, (select claim from inserted) as claim`;

/**
 * Joins every outermost transaction committed inside an idempotency scope: the first one that wrote
 * something inserts the key's record, so the write and the record commit (or roll back) together. A twin request holding the
 * same key waits on the primary key, then finds it taken and rolls its own write back.
 */
export class IdempotencySubscriber implements EventSubscriber {
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const scope = idempotencyScope.getStore();
    const trx = args.transaction as object | undefined;
    if (!scope || scope.written || scope.closed || !trx || 'savepointName' in trx) return;
    const [row] = await args.em
      .getConnection()
      .execute<Array<{ wrote: boolean; claim: string | null }>>(
        INSERT,
        [scope.keyId, scope.key, scope.fingerprint, scope.claim],
        'all',
        trx,
      );
    if (!row.wrote) return;
    if (row.claim === null) throw new IdempotencyRaceLost();
    scope.pending = trx;
  }

  async afterTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const scope = idempotencyScope.getStore();
    if (scope?.pending && scope.pending === args.transaction) {
      scope.written = true;
      scope.pending = null;
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
    Array<{ fingerprint: string; claim: string; status: number | null; body: string | null; age: string }>
  >(
    `select fingerprint, claim, status, body, extract(epoch from now() - created_at)::float8 as age
       from idempotency_keys where key_id = ? and idempotency_key = ?`,
    [keyId, key],
  );
  return row
    ? {
        fingerprint: row.fingerprint,
        claim: row.claim,
        status: row.status,
        body: row.body,
        ageSeconds: Number(row.age),
      }
    : null;
}

/**
 * Keeps the answer: completes this request's own record, or inserts it when the request committed
 * nothing here (a rejection, or a write another service made). Never touches a twin's record.
 */
export async function saveAnswer(em: EntityManager, scope: IdempotencyScope, status: number, body: string | null) {
  await em.getConnection().execute(
    `insert into idempotency_keys as k (key_id, idempotency_key, fingerprint, claim, status, body, answered_at)
       values (?, ?, ?, ?, ?, ?, now())
     on conflict (key_id, idempotency_key) do update set status = excluded.status, body = excluded.body,
       answered_at = excluded.answered_at
     where k.claim = excluded.claim and k.status is null`,
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
