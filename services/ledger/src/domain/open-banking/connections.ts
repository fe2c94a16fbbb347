import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextKey, contextSql, encodeCursor, iso } from '@finance/shared/db/context-scope';
import { afterIdOf } from '@finance/shared/db/pagination';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';

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

export const connectionView = (row: ConnectionRow) => ({
  id: row.id,
  external_id: row.external_id,
  institution: row.institution,
  status: row.status,
  revoked_at: iso(row.revoked_at),
  profile_id: row.profile_id,
  user_id: row.user_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** The context's connection with this bank id, if it was ever imported. */
export async function findConnectionByExternalId(
  em: EntityManager,
  ctx: CallerContext,
  externalId: string,
): Promise<ConnectionRow | null> {
  const scope = contextSql(ctx);
  const rows = await execute<ConnectionRow>(
    em,
    `select * from connections where coalesce(profile_id, user_id) = ? and external_id = ? and ${scope.sql}`,
    [contextKey(ctx), externalId, ...scope.params],
  );
  return rows[0] ?? null;
}

/** Creates the connection on its first import; later imports only refresh the institution name. */
export async function upsertConnection(
  em: EntityManager,
  ctx: CallerContext,
  connection: { id: string; institution: string },
): Promise<string> {
  await execute(
    em,
    `insert into connections as c (id, user_id, profile_id, external_id, institution)
     values (?, ?, ?, ?, ?)
     on conflict (coalesce(profile_id, user_id), external_id) do update set institution = excluded.institution,
       updated_at = now()
     where c.institution is distinct from excluded.institution`,
    [newId(), ctx.userId, ctx.profileId, connection.id, connection.institution],
  );
  return (await findConnectionByExternalId(em, ctx, connection.id))?.id as string;
}

/** GET /v1/open-banking/connections: the context's connections by creation, optionally by status. */
export async function listConnections(
  em: EntityManager,
  ctx: CallerContext,
  query: { limit: number; cursor?: string; status?: 'ACTIVE' | 'REVOKED' },
) {
  const after = afterIdOf(query.cursor);
  const scope = contextSql(ctx);
  const where = ['coalesce(profile_id, user_id) = ?', scope.sql];
  const params: unknown[] = [contextKey(ctx), ...scope.params];
  if (query.status) {
    where.push('status = ?');
    params.push(query.status);
  }
  if (after) {
    where.push('id > ?');
    params.push(after);
  }
  const rows = await execute<ConnectionRow>(
    em,
    `select * from connections where ${where.join(' and ')} order by id limit ?`,
    [...params, query.limit + 1],
  );
  const items = rows.slice(0, query.limit);
  return {
    data: items.map(connectionView),
    next_cursor: rows.length > query.limit ? encodeCursor([items[items.length - 1].id]) : null,
  };
}
