import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyCache } from './key-cache.ts';
import { parseBasicCredentials, secretMatches } from './key-secret.ts';

export interface AuthenticatedKey {
  context: CallerContext;
  scopes: string[];
}

/** A live key (not revoked, its owner still a member of its company) as read from the database. */
export interface VerifiedKeyRow {
  id: string;
  secret_hash: string;
  scopes: string[];
  user_id: string;
  profile_id: string | null;
  license: string | null;
}

interface KeyRow extends VerifiedKeyRow {
  is_member: boolean;
}

async function loadKey(em: EntityManager, token: string): Promise<VerifiedKeyRow | null> {
  const rows: KeyRow[] = await em.getConnection().execute(
    `select k.id, k.secret_hash, k.scopes, k.user_id, k.profile_id, c.license,
            (k.profile_id is null or m.user_id is not null) as is_member
       from api_keys k
       left join companies c on c.id = k.profile_id
       left join company_members m on m.company_id = k.profile_id and m.user_id = k.user_id
      where k.token = ? and k.revoked_at is null`,
    [token],
  );
  const row = rows[0];
  if (!row?.is_member) return null;
  const { is_member: _member, ...verified } = row;
  return verified;
}

/**
 * Resolves an Authorization header to its key and context: from the cache of live keys when it holds the token,
 * else in one query. The secret is checked on every request either way; null for any bad credential.
 */
export async function authenticateKey(
  em: EntityManager,
  header: string | undefined,
  pepper: string,
  cache?: KeyCache,
): Promise<AuthenticatedKey | null> {
  const credentials = parseBasicCredentials(header);
  if (!credentials || credentials.token.length > 64) return null;
  let row = cache?.get(credentials.token);
  if (!row) {
    const startedAt = cache?.begin() ?? 0;
    row = (await loadKey(em, credentials.token)) ?? undefined;
    if (!row) return null;
    cache?.set(credentials.token, row, startedAt);
  }
  if (!secretMatches(credentials.secret, row.secret_hash, pepper)) return null;
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
