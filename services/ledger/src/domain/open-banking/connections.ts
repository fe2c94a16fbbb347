import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ConnectionListQuery } from '@finance/shared/contracts/ledger/open-banking';
import { iso } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import type { ContextRef } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type ConnectionRow,
  insertOrRefreshConnection,
  type SyncCursor,
  selectConnectionByExternalId,
  selectConnectionsDue,
  selectConnectionsPage,
} from '../../data-access/connection-repository.ts';

export type { ConnectionRow };

export const connectionView = (row: ConnectionRow) => ({
  id: row.id,
  external_id: row.external_id,
  institution: row.institution,
  institution_id: row.institution_id,
  status: row.status,
  authorization_url: row.status === 'AWAITING_AUTHORISATION' ? row.authorization_url : null,
  consent_expires_at: iso(row.consent_expires_at),
  last_synced_at: iso(row.last_synced_at),
  last_sync_error: row.last_sync_error,
  last_sync_skipped_count: row.last_sync_skipped_count,
  last_sync_skipped: row.last_sync_skipped,
  last_import_job_id: row.last_import_job_id,
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
  return selectConnectionByExternalId(em, ctx, externalId);
}

/** Creates the connection on its first import; later imports only refresh the institution name. */
export async function upsertConnection(
  em: EntityManager,
  ctx: CallerContext,
  connection: { id: string; institution: string },
): Promise<string> {
  await insertOrRefreshConnection(em, ctx, connection);
  return (await findConnectionByExternalId(em, ctx, connection.id))?.id as string;
}

/** GET /v1/open-banking/connections: the context's connections by creation, optionally by status. */
export async function listConnections(em: EntityManager, ctx: CallerContext, query: ConnectionListQuery) {
  const rows = await selectConnectionsPage(em, ctx, {
    limit: query.limit,
    after: afterIdOf(query.cursor),
    status: query.status,
  });
  return toPage(rows, query.limit, connectionView);
}

const SYNC_BATCH = 500;

/**
 * Every ACTIVE connection made with an institution whose last sync is older than `intervalMs`, in batches through
 * the index of sync times, each handed to `queueSync` with its context and the sync it is due after.
 */
export async function forEachConnectionDue(
  em: EntityManager,
  intervalMs: number,
  queueSync: (connection: { id: string; context: ContextRef; syncedAt: string }) => Promise<void>,
) {
  const syncedBefore = new Date(now().getTime() - intervalMs);
  let cursor: SyncCursor = { syncedAt: '-infinity', id: '00000000-0000-0000-0000-000000000000' };
  for (;;) {
    const rows = await selectConnectionsDue(em, syncedBefore, cursor, SYNC_BATCH);
    for (const row of rows)
      await queueSync({
        id: row.id,
        context: { user_id: row.user_id, profile_id: row.profile_id },
        syncedAt: row.synced_at,
      });
    if (rows.length < SYNC_BATCH) return;
    const last = rows[rows.length - 1];
    cursor = { syncedAt: last.synced_at, id: last.id };
  }
}
