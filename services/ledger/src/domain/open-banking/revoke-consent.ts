import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextRef } from '@finance/shared/db/context-scope';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  countLiveAccountsOfConnection,
  lockConnection,
  markConnectionRevoked,
} from '../../data-access/connection-repository.ts';
import type { BankConnector } from './bank-connector.ts';

const liveAccounts = countLiveAccountsOfConnection;

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
    const connection = await lockConnection(tx, ctx, connectionId);
    if (!connection) return 'unknown';
    if (connection.status === 'REVOKED') return 'already-revoked';
    if ((await liveAccounts(tx, ctx, connectionId)) > 0) return 'in-use';
    await connector.revokeConsent(tx, connection);
    await markConnectionRevoked(tx, connectionId);
    return 'revoked';
  });
}
