import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseBasicCredentials, secretMatches } from './key-secret.ts';

export interface AuthenticatedKey {
  context: CallerContext;
  scopes: string[];
}

interface KeyRow {
  id: string;
  secret_hash: string;
  scopes: string[];
  user_id: string;
  profile_id: string | null;
  license: string | null;
  is_member: boolean;
}

/** Resolves an Authorization header to its key and context in one query; null for any bad credential. */
export async function authenticateKey(
  em: EntityManager,
  header: string | undefined,
  pepper: string,
): Promise<AuthenticatedKey | null> {
  const credentials = parseBasicCredentials(header);
  if (!credentials || credentials.token.length > 64) return null;
  const rows: KeyRow[] = await em.getConnection().execute(
    `select k.id, k.secret_hash, k.scopes, k.user_id, k.profile_id, c.license,
            (k.profile_id is null or m.user_id is not null) as is_member
       from api_keys k
       left join companies c on c.id = k.profile_id
       left join company_members m on m.company_id = k.profile_id and m.user_id = k.user_id
      where k.token = ? and k.revoked_at is null`,
    [credentials.token],
  );
  const row = rows[0];
  if (!row || !secretMatches(credentials.secret, row.secret_hash, pepper) || !row.is_member) return null;
  return {
    scopes: row.scopes,
    context: {
      userId: row.user_id,
      profileId: row.profile_id,
      business: row.profile_id !== null && row.license === 'active',
      keyId: row.id,
    },
  };
}
