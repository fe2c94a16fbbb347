import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { VerifiedKeyRow } from '../domain/authenticate-key.ts';

interface KeyRow extends VerifiedKeyRow {
  is_member: boolean;
}

/** The live key of a token (not revoked, its owner still a member of its company) in one query; null otherwise. */
export async function findLiveKey(em: EntityManager, token: string): Promise<VerifiedKeyRow | null> {
  const rows = await runSql<KeyRow>(
    em,
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
