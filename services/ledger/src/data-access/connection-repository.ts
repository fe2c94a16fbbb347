import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

export type ConnectionStatus = 'AWAITING_AUTHORISATION' | 'ACTIVE' | 'EXPIRED' | 'REVOKED' | 'FAILED';

export interface ConnectionRow {
  id: string;
  user_id: string;
  profile_id: string | null;
  external_id: string;
  institution: string;
  institution_id: string | null;
  status: ConnectionStatus;
  consent_id: string | null;
  consent_expires_at: Date | null;
  state_hash: string | null;
  /** Sealed (SecretBox): the PKCE verifier and nonce while authorising. */
  authorization_secret: string | null;
  /** Sealed (SecretBox). */
  refresh_token: string | null;
  authorization_url: string | null;
  redirect_uri: string | null;
  authorization_started_at: Date | null;
  last_synced_at: Date | null;
  last_sync_error: string | null;
  last_import_job_id: string | null;
  sync_lease_until: Date | null;
  sync_queued_at: Date | null;
  webhook_acted_at: Date | null;
  consent_revoked_at_institution: Date | null;
  /** Sealed (SecretBox): the CPF the consent was given for. */
  holder_document: string | null;
  last_sync_skipped: Array<{ record: string; reason: string }>;
  last_sync_skipped_count: number;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The context's connection with this bank id, if it was ever imported. */
export async function selectConnectionByExternalId(
  em: EntityManager,
  ctx: CallerContext,
  externalId: string,
): Promise<ConnectionRow | null> {
  const scope = contextSql(ctx);
  const rows = await runSql<ConnectionRow>(em, `select * from connections where ${scope.sql} and external_id = ?`, [
    ...scope.params,
    externalId,
  ]);
  return rows[0] ?? null;
}

/** Inserts the connection, or refreshes the institution name of the existing one when it changed. */
export async function insertOrRefreshConnection(
  em: EntityManager,
  ctx: CallerContext,
  connection: { id: string; institution: string },
): Promise<void> {
  await runSql(
    em,
    `insert into connections as c (id, user_id, profile_id, external_id, institution)
     values (?, ?, ?, ?, ?)
     on conflict (context_id, external_id) do update set institution = excluded.institution,
       updated_at = now()
     where c.institution is distinct from excluded.institution`,
    [newId(), ctx.userId, ctx.profileId, connection.id, connection.institution],
  );
}

/** A page of the context's connections by id (one row more than `limit` when another page follows). */
export async function selectConnectionsPage(
  em: EntityManager,
  ctx: CallerContext,
  query: { limit: number; after: string | null | undefined; status?: ConnectionStatus },
): Promise<ConnectionRow[]> {
  const scope = contextSql(ctx);
  const where = [scope.sql];
  const params: unknown[] = [...scope.params];
  if (query.status) {
    where.push('status = ?');
    params.push(query.status);
  }
  if (query.after) {
    where.push('id > ?');
    params.push(query.after);
  }
  return runSql<ConnectionRow>(em, `select * from connections where ${where.join(' and ')} order by id limit ?`, [
    ...params,
    query.limit + 1,
  ]);
}

/** How many live accounts of the context came through the connection. */
export async function countLiveAccountsOfConnection(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
): Promise<number> {
  const scope = contextSql(ctx);
  const rows = await runSql<{ count: string }>(
    em,
    `select count(*) from accounts where connection_id = ? and deleted_at is null and ${scope.sql}`,
    [connectionId, ...scope.params],
  );
  return Number(rows[0].count);
}

/** The context's connection locked FOR UPDATE until the transaction ends; undefined when none. */
export async function lockConnection(em: EntityManager, ctx: CallerContext, connectionId: string) {
  const scope = contextSql(ctx);
  const [connection] = await runSql<ConnectionRow>(
    em,
    `select * from connections where id = ? and ${scope.sql} for update`,
    [connectionId, ...scope.params],
  );
  return connection;
}

/** Stores an import's payload under its background job. */
export async function insertImportPayload(em: EntityManager, jobId: string, ctx: CallerContext, payload: unknown) {
  await runSql(
    em,
    'insert into open_banking_imports (job_id, user_id, profile_id, payload) values (?, ?, ?, ?::jsonb)',
    [jobId, ctx.userId, ctx.profileId, JSON.stringify(payload)],
  );
}

/** The stored payload of an import job (no row: the job is unknown). */
export async function selectImportPayload(em: EntityManager, jobId: string) {
  return runSql<{ payload: unknown }>(em, 'select payload from open_banking_imports where job_id = ?', [jobId]);
}

/** The context's connection by id, or null. */
export async function selectConnection(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
): Promise<ConnectionRow | null> {
  const scope = contextSql(ctx);
  const [row] = await runSql<ConnectionRow>(em, `select * from connections where id = ? and ${scope.sql}`, [
    id,
    ...scope.params,
  ]);
  return row ?? null;
}

/** A connection made here, waiting for the customer at its institution (its own id is its external id). */
export async function insertAuthorizingConnection(
  em: EntityManager,
  ctx: CallerContext,
  row: { id: string; institution: string; institutionId: string; authorization: AuthorizationFields },
): Promise<void> {
  const a = row.authorization;
  await runSql(
    em,
    `insert into connections (id, user_id, profile_id, external_id, institution, institution_id, status, consent_id,
       consent_expires_at, state_hash, authorization_secret, authorization_url, redirect_uri, holder_document,
       authorization_started_at)
     values (?, ?, ?, ?, ?, ?, 'AWAITING_AUTHORISATION', ?, ?, ?, ?, ?, ?, ?, now())`,
    [
      row.id,
      ctx.userId,
      ctx.profileId,
      row.id,
      row.institution,
      row.institutionId,
      a.consentId,
      a.consentExpiresAt,
      a.stateHash,
      a.secret,
      a.url,
      a.redirectUri,
      a.holderDocument,
    ],
  );
}

export interface AuthorizationFields {
  consentId: string;
  consentExpiresAt: string | null;
  stateHash: string;
  secret: string;
  url: string;
  redirectUri: string | null;
  /** Sealed: the CPF the consent is for. */
  holderDocument: string;
}

/** A new authorization for an existing connection (renewal): its consent, state and secrets replaced. */
export async function restartAuthorization(em: EntityManager, ctx: CallerContext, id: string, a: AuthorizationFields) {
  const scope = contextSql(ctx);
  await runSql(
    em,
    `update connections set status = 'AWAITING_AUTHORISATION', consent_id = ?, consent_expires_at = ?, state_hash = ?,
       authorization_secret = ?, authorization_url = ?, redirect_uri = ?, holder_document = ?,
       authorization_started_at = now(),
       refresh_token = null, revoked_at = null, consent_revoked_at_institution = null, last_sync_error = null,
       updated_at = now()
     where id = ? and ${scope.sql}`,
    [
      a.consentId,
      a.consentExpiresAt,
      a.stateHash,
      a.secret,
      a.url,
      a.redirectUri,
      a.holderDocument,
      id,
      ...scope.params,
    ],
  );
}

/**
 * Takes the callback's state: the connection waiting with it, its state cleared in the same statement so a
 * second request with the same state (a replay, or a race) finds nothing. Null for an unknown state.
 */
export async function takeAuthorizationState(em: EntityManager, stateHash: string): Promise<ConnectionRow | null> {
  const [row] = await runSql<ConnectionRow>(
    em,
    `update connections set state_hash = null
      where state_hash = ? and status = 'AWAITING_AUTHORISATION'
      returning *`,
    [stateHash],
  );
  return row ?? null;
}

/** Gives a taken state back when the exchange failed on the institution's side: the connection is as before. */
export async function returnAuthorizationState(em: EntityManager, id: string, stateHash: string): Promise<void> {
  await runSql(
    em,
    `update connections set state_hash = ? where id = ? and state_hash is null and status = 'AWAITING_AUTHORISATION'`,
    [stateHash, id],
  );
}

/** The customer authorised: the refresh token is kept (sealed) and the authorization's secrets dropped. */
export async function activateConnection(em: EntityManager, id: string, refreshToken: string): Promise<void> {
  await runSql(
    em,
    `update connections set status = 'ACTIVE', refresh_token = ?, authorization_secret = null, authorization_url = null,
       last_sync_error = null, updated_at = now()
     where id = ?`,
    [refreshToken, id],
  );
}

/** The connection's status changes (FAILED, EXPIRED, REVOKED), with the reason; its secrets are dropped. */
export async function endConnection(
  em: EntityManager,
  id: string,
  status: 'FAILED' | 'EXPIRED' | 'REVOKED',
  reason: string | null,
): Promise<ConnectionRow | null> {
  const [row] = await runSql<ConnectionRow>(
    em,
    `update connections set status = ?, last_sync_error = ?, authorization_secret = null, authorization_url = null,
       state_hash = null, refresh_token = null,
       revoked_at = case when ? = 'REVOKED' then coalesce(revoked_at, now()) else revoked_at end, updated_at = now()
     where id = ? and status <> ? returning *`,
    [status, reason, status, id, status],
  );
  return row ?? null;
}

/** A sync job queued older than this is taken as lost: another request may queue one. */
const QUEUED_SYNC_LAPSES = "interval '1 hour'";

/**
 * Marks a sync of the connection queued, unless one already is (and has not lapsed): true when the caller is to
 * queue it. The sync job clears the mark when it starts (`leaseSync`).
 */
export async function markSyncQueued(em: EntityManager, id: string): Promise<boolean> {
  const rows = await runSql<{ id: string }>(
    em,
    `update connections set sync_queued_at = now()
      where id = ? and (sync_queued_at is null or sync_queued_at < now() - ${QUEUED_SYNC_LAPSES}) returning id`,
    [id],
  );
  return rows.length > 0;
}

/**
 * The ACTIVE connection of an aggregator's item, when its webhooks have not acted within `seconds` (they act now:
 * the time is taken in the same statement, so one of many simultaneous calls gets it); else null.
 */
export async function takeItemWebhookTurn(
  em: EntityManager,
  institutionId: string,
  itemId: string,
  seconds: number,
): Promise<ConnectionRow | null> {
  const [row] = await runSql<ConnectionRow>(
    em,
    `update connections set webhook_acted_at = now()
      where institution_id = ? and consent_id = ? and status = 'ACTIVE'
        and (webhook_acted_at is null or webhook_acted_at <= now() - make_interval(secs => ?))
      returning *`,
    [institutionId, itemId, seconds],
  );
  return row ?? null;
}

/**
 * Takes the connection's sync lease until `seconds` from now, when it is ACTIVE and no other sync holds it:
 * the row it answers is this sync's; null when another sync runs (or the connection is not ACTIVE). Either way
 * the queued sync has started: a request from now on queues another.
 */
export async function leaseSync(em: EntityManager, id: string, seconds: number): Promise<ConnectionRow | null> {
  await runSql(em, 'update connections set sync_queued_at = null where id = ? and sync_queued_at is not null', [id]);
  const [row] = await runSql<ConnectionRow>(
    em,
    `update connections set sync_lease_until = now() + make_interval(secs => ?)
      where id = ? and status = 'ACTIVE' and (sync_lease_until is null or sync_lease_until < now())
      returning *`,
    [seconds, id],
  );
  return row ?? null;
}

/** How many records the sync left out the connection shows, with their reasons (the count is whole). */
const SKIPPED_SHOWN = 50;

/**
 * A sync ended: its lease freed, its outcome recorded (the records it left out, when it read the institution), and
 * the refresh token sealed again under a new key.
 */
export async function finishSync(
  em: EntityManager,
  id: string,
  outcome: {
    importJobId: string | null;
    error: string | null;
    resealedToken: string | null;
    skipped?: Array<{ record: string; reason: string }>;
  },
): Promise<void> {
  const skipped = outcome.skipped ?? null;
  await runSql(
    em,
    // the one clock's time: the scheduler compares it with that clock, and the next sync reads from its day
    `update connections set sync_lease_until = null, last_sync_error = ?,
       last_synced_at = case when ? is null then ?::timestamptz else last_synced_at end,
       last_import_job_id = coalesce(?, last_import_job_id),
       last_sync_skipped = coalesce(?::jsonb, last_sync_skipped),
       last_sync_skipped_count = coalesce(?, last_sync_skipped_count),
       refresh_token = coalesce(?, refresh_token), updated_at = now()
     where id = ?`,
    [
      outcome.error,
      outcome.error,
      now(),
      outcome.importJobId,
      skipped && JSON.stringify(skipped.slice(0, SKIPPED_SHOWN)),
      skipped?.length ?? null,
      outcome.resealedToken,
      id,
    ],
  );
}

/**
 * For each of the connection's live accounts (by the institution's id), the oldest day of an entry of it still
 * pending or scheduled: a sync reads from there again until it settles.
 */
export async function selectOpenEntriesSince(em: EntityManager, ctx: CallerContext, connectionId: string) {
  const scope = contextSql(ctx, 'k');
  const rows = await runSql<{ external_id: string; since: string }>(
    em,
    `select a.external_id, to_char(min(t.date), 'YYYY-MM-DD') as since
     from import_keys k join transactions t on t.id = k.transaction_id join accounts a on a.id = t.account_id
     where ${scope.sql} and k.source = ? and k.status <> 'BOOKED' and t.deleted_at is null and not t.paid
       and a.deleted_at is null and a.external_id is not null
     group by a.external_id`,
    [...scope.params, `connection:${connectionId}`],
  );
  return Object.fromEntries(rows.map((row) => [row.external_id, row.since]));
}

/** Where the scheduler's run goes on from: the last sync time and id of the last connection it took. */
export interface SyncCursor {
  syncedAt: string;
  id: string;
}

const SYNCED_AT = `coalesce(last_synced_at, '-infinity'::timestamptz)`;

/**
 * A batch of ACTIVE connections made here whose last sync is older than `syncedBefore`, after `cursor` in (last sync,
 * id) order through the index of sync times: what the scheduler queues a sync of.
 */
export async function selectConnectionsDue(em: EntityManager, syncedBefore: Date, cursor: SyncCursor, size: number) {
  return runSql<{ id: string; user_id: string; profile_id: string | null; synced_at: string }>(
    em,
    `select id, user_id, profile_id, ${SYNCED_AT}::text as synced_at from connections
      where status = 'ACTIVE' and institution_id is not null and ${SYNCED_AT} <= ?
        and (${SYNCED_AT}, id) > (?::timestamptz, ?::uuid)
      order by ${SYNCED_AT}, id limit ?`,
    [syncedBefore, cursor.syncedAt, cursor.id, size],
  );
}

/** The institution answered the revocation. */
export async function markConsentRevokedAtInstitution(em: EntityManager, id: string): Promise<void> {
  await runSql(em, 'update connections set consent_revoked_at_institution = now() where id = ?', [id]);
}

/** A connection to an aggregator (Pluggy), waiting for the item its front-end widget creates. */
export async function insertAggregatorConnection(
  em: EntityManager,
  ctx: CallerContext,
  row: { id: string; institution: string; institutionId: string },
): Promise<void> {
  await runSql(
    em,
    `insert into connections (id, user_id, profile_id, external_id, institution, institution_id, status, authorization_started_at)
     values (?, ?, ?, ?, ?, ?, 'AWAITING_AUTHORISATION', now())`,
    [row.id, ctx.userId, ctx.profileId, row.id, row.institution, row.institutionId],
  );
}

/** An aggregator connection waits again for an item (renewal). */
export async function restartItemAuthorization(em: EntityManager, ctx: CallerContext, id: string): Promise<void> {
  const scope = contextSql(ctx);
  await runSql(
    em,
    `update connections set status = 'AWAITING_AUTHORISATION', consent_id = null, revoked_at = null,
       consent_revoked_at_institution = null, last_sync_error = null, authorization_started_at = now(), updated_at = now()
     where id = ? and ${scope.sql}`,
    [id, ...scope.params],
  );
}

/** The aggregator's item becomes the connection's (its `consent_id`), which is ACTIVE from now; false if it was not waiting. */
export async function activateItem(
  em: EntityManager,
  id: string,
  itemId: string,
  institution: string,
): Promise<boolean> {
  const rows = await runSql(
    em,
    `update connections set status = 'ACTIVE', consent_id = ?, institution = ?, last_sync_error = null, updated_at = now()
     where id = ? and status <> 'ACTIVE' returning id`,
    [itemId, institution, id],
  );
  return rows.length > 0;
}
