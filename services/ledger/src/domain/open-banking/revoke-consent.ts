import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextRef, contextSql } from '@finance/shared/db/context-scope';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';
import type { BankConnector } from './bank-connector.ts';
import type { ConnectionRow } from './connections.ts';

async function liveAccounts(em: EntityManager, ctx: CallerContext, connectionId: string): Promise<number> {
  const scope = contextSql(ctx);
  const rows = await execute<{ count: string }>(
    em,
    `select count(*) from accounts where connection_id = ? and deleted_at is null and ${scope.sql}`,
    [connectionId, ...scope.params],
  );
  return Number(rows[0].count);
}

/**
 * Called by account deletion inside its transaction: when no live account of the connection is left, the
 * revocation request leaves through the outbox with the same commit (it survives a Redis outage).
 */
export async function requestConsentRevocationIfLast(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string | null | undefined,
): Promise<void> {
  if (!connectionId) return;
  if ((await liveAccounts(em, ctx, connectionId)) > 0) return;
  recordEvent(em, 'connection.consent_revoke_requested', contextRef(ctx), { connection_id: connectionId });
}

/**
 * The revocation job: asks the bank through the connector and marks the connection REVOKED, in one
 * transaction under the connection's row lock. Running twice changes nothing; a connection that got a
 * live account again meanwhile keeps its consent.
 */
export async function revokeConsent(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  connector: BankConnector,
): Promise<'revoked' | 'already-revoked' | 'in-use' | 'unknown'> {
  return em.transactional(async (tx) => {
    const scope = contextSql(ctx);
    const [connection] = await execute<ConnectionRow>(
      tx,
      `select * from connections where id = ? and ${scope.sql} for update`,
      [connectionId, ...scope.params],
    );
    if (!connection) return 'unknown';
    if (connection.status === 'REVOKED') return 'already-revoked';
    if ((await liveAccounts(tx, ctx, connectionId)) > 0) return 'in-use';
    await connector.revokeConsent(tx, connection);
    await execute(
      tx,
      `update connections set status = 'REVOKED', revoked_at = now(), updated_at = now() where id = ?`,
      [connectionId],
    );
    return 'revoked';
  });
}
