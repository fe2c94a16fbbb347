import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConnectionRow } from './connection-repository.ts';

/** Records a connection's consent revocation for operators to replay at the bank; once per connection. */
export async function recordConsentRevocation(em: EntityManager, connection: ConnectionRow): Promise<void> {
  await runSql(
    em,
    `insert into consent_revocations (connection_id, user_id, profile_id, external_id, institution)
     values (?, ?, ?, ?, ?) on conflict (connection_id) do nothing`,
    [connection.id, connection.user_id, connection.profile_id, connection.external_id, connection.institution],
  );
}
