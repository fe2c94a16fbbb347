import type { EntityManager } from '@mikro-orm/postgresql';
import { recordConsentRevocation } from '../../data-access/consent-revocations.ts';
import type { ConnectionRow } from './connections.ts';

/** The bank side of open banking: the one place a real aggregator integration plugs in. */
export interface BankConnector {
  /** Revokes the connection's consent at the bank; must be safe to call twice for one connection. */
  revokeConsent(em: EntityManager, connection: ConnectionRow): Promise<void>;
}

/**
 * Default connector while no aggregator is configured: it records the revocation (one row per connection)
 * so operators can replay it at the bank; it claims nothing else.
 */
export const recordingBankConnector: BankConnector = {
  async revokeConsent(em, connection) {
    await recordConsentRevocation(em, connection);
  },
};
