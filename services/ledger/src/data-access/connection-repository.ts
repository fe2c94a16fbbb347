import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface ConnectionRow {
  id: string;
  user_id: string;
  profile_id: string | null;
  external_id: string;
  institution: string;
  status: 'ACTIVE' | 'REVOKED';
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
  query: { limit: number; after: string | null | undefined; status?: 'ACTIVE' | 'REVOKED' },
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

export async function markConnectionRevoked(em: EntityManager, connectionId: string): Promise<void> {
  await runSql(em, `update connections set status = 'REVOKED', revoked_at = now(), updated_at = now() where id = ?`, [
    connectionId,
  ]);
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
