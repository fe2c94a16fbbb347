import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextRef } from '@finance/shared/db/context-scope';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  countLiveAccountsOfConnection,
  endConnection,
  lockConnection,
  markConsentRevokedAtInstitution,
  selectConnection,
} from '../../data-access/connection-repository.ts';
import { type OpenFinance, PLUGGY } from './open-finance.ts';

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
  recordEvent(em, 'connection.consent_revoke_requested', contextRef(ctx), {
    connection_id: connectionId,
    reason: 'last-account',
  });
}

/**
 * The revocation job: revokes the consent at the institution (`DELETE /consents/{consentId}`; a failure throws
 * and the job tries again until the institution answers), then marks the connection REVOKED. Running twice
 * changes nothing; after the last account's deletion, a connection that got a live account again keeps its
 * consent. A connection made by a JSON import has no consent here: it is only marked REVOKED.
 */
export async function revokeConsent(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  openFinance: OpenFinance,
  reason: 'last-account' | 'deleted' = 'last-account',
): Promise<'revoked' | 'already-revoked' | 'in-use' | 'unknown'> {
  const connection = await selectConnection(em, ctx, connectionId);
  if (!connection) return 'unknown';
  if (connection.consent_revoked_at_institution) return 'already-revoked';
  if (connection.status === 'REVOKED' && !connection.consent_id) return 'already-revoked';
  if (reason === 'last-account' && (await liveAccounts(em, ctx, connectionId)) > 0) return 'in-use';
  const institution = openFinance.institutions().find((candidate) => candidate.id === connection.institution_id);
  const pluggyItem = connection.institution_id === PLUGGY && openFinance.pluggy ? connection.consent_id : null;
  // a Pluggy item is deleted at Pluggy; an Open Finance consent revoked at its institution
  if (pluggyItem) await openFinance.pluggy?.deleteItem(pluggyItem);
  else if (institution && connection.consent_id) {
    await openFinance.connector.revokeConsent(institution, connection.consent_id);
  }
  return em.transactional(async (tx) => {
    const locked = await lockConnection(tx, ctx, connectionId);
    if (!locked) return 'unknown';
    if (reason === 'last-account' && (await liveAccounts(tx, ctx, connectionId)) > 0) return 'in-use';
    await endConnection(tx, connectionId, 'REVOKED', null);
    if ((institution || pluggyItem) && connection.consent_id) await markConsentRevokedAtInstitution(tx, connectionId);
    return 'revoked';
  });
}
