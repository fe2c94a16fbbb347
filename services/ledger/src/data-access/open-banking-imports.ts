import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface ConnectionAccount {
  id: string;
  external_id: string;
  deleted: boolean;
}

/** Every account of the connection with its bank id (deleted ones included). */
export async function selectAccountsOfConnection(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
): Promise<ConnectionAccount[]> {
  const scope = contextSql(ctx);
  return runSql<ConnectionAccount>(
    em,
    `select id, external_id, deleted_at is not null as deleted from accounts
     where connection_id = ? and external_id is not null and ${scope.sql}`,
    [connectionId, ...scope.params],
  );
}

/**
 * Accounts by (context, connection, external id) in one statement: balance, type and subtype follow the bank;
 * name and logo are set once; unchanged and deleted rows are not touched. The rows created or changed.
 */
export async function upsertImportedAccounts(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  rows: Array<{
    id: string;
    external_id: string;
    name: string;
    logo: string;
    balance: number | null;
    type: string;
    subtype: string | null;
  }>,
) {
  return runSql<{ id: string; name: string; type: string | null; created: boolean }>(
    em,
    `insert into accounts as a (id, user_id, profile_id, name, logo, initial_balance, bank_balance, include_total_balance,
       is_default, type, subtype, connection_id, external_id, created_at, updated_at)
     select r.id, ?, ?, r.name, r.logo, 0, r.balance, true, false, r.type, r.subtype, ?, r.external_id, now(), now()
     from json_to_recordset(?::json) as r(id uuid, external_id text, name text, logo text, balance bigint, type text, subtype text)
     on conflict (context_id, connection_id, external_id) where external_id is not null do update set
       bank_balance = coalesce(excluded.bank_balance, a.bank_balance), type = excluded.type, subtype = excluded.subtype,
       updated_at = now()
     where a.deleted_at is null
       and (a.bank_balance, a.type, a.subtype)
         is distinct from (coalesce(excluded.bank_balance, a.bank_balance), excluded.type, excluded.subtype)
     returning a.id, a.name, a.type, (xmax = 0) as created`,
    [ctx.userId, ctx.profileId, connectionId, JSON.stringify(rows)],
  );
}

/** The connection's oldest live account becomes the default when the context has none. */
export async function makeFirstConnectionAccountDefault(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
): Promise<void> {
  const scope = contextSql(ctx);
  await runSql(
    em,
    `update accounts set is_default = true, updated_at = now() where id = (
       select id from accounts where connection_id = ? and deleted_at is null and ${scope.sql} order by created_at, id limit 1)
     and not exists (
       select 1 from accounts where ${scope.sql} and is_default and deleted_at is null)`,
    [connectionId, ...scope.params, ...scope.params],
  );
}
