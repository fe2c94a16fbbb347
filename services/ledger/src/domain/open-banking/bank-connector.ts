import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';
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
    await execute(
      em,
      `insert into consent_revocations (connection_id, user_id, profile_id, external_id, institution)
       values (?, ?, ?, ?, ?) on conflict (connection_id) do nothing`,
      [connection.id, connection.user_id, connection.profile_id, connection.external_id, connection.institution],
    );
  },
};
