import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findLiveKey } from '../data-access/key-repository.ts';
import type { KeyCache } from './key-cache.ts';
import { digestsEqual, parseBasicCredentials, secretDigest, secretMatches } from './key-secret.ts';

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
    row = (await findLiveKey(em, credentials.token)) ?? undefined;
    if (!row) return null;
    cache?.set(credentials.token, row, startedAt);
  }
  // a secret already seen to match this cached row is compared by its digest, not by a new HMAC
  const digest = cache ? secretDigest(credentials.secret) : null;
  const known = cache?.verifiedDigest(credentials.token);
  if (!(known && digest && digestsEqual(known, digest))) {
    if (!secretMatches(credentials.secret, row.secret_hash, pepper)) return null;
    if (digest) cache?.rememberVerified(credentials.token, digest);
  }
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
