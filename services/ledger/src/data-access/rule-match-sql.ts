import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';

/** What a rule compares: its direction and the normalized value of each field it lists (null = not compared). */
export interface MatchTarget {
  is_expense: boolean;
  match_merchant_name: string | null;
  match_merchant_cnpj: string | null;
}

/**
 * SQL selecting the live transactions (alias `t`) of the context that a rule matches. The context key
 * condition lets the merchant indexes of migration 0008 drive the scan; the context filter keeps it exact.
 */
export function matchSql(ctx: CallerContext, target: MatchTarget): { sql: string; params: unknown[] } {
  const scope = contextSql(ctx, 't');
  const parts = [scope.sql, 't.deleted_at is null', 't.is_expense = ?'];
  const params: unknown[] = [...scope.params, target.is_expense];
  if (target.match_merchant_name !== null) {
    parts.push('t.merchant_name_normalized = ?');
    params.push(target.match_merchant_name);
  }
  if (target.match_merchant_cnpj !== null) {
    parts.push('t.merchant_cnpj_digits = ?');
    params.push(target.match_merchant_cnpj);
  }
  // a rule always compares at least one field; this guards against matching a whole context
  if (target.match_merchant_name === null && target.match_merchant_cnpj === null) parts.push('false');
  return { sql: parts.join(' and '), params };
}

/** The context a stored row belongs to, for code that runs outside a request (workers). */
export const contextOfRow = (row: { user_id: string; profile_id: string | null }): CallerContext => ({
  userId: row.user_id,
  profileId: row.profile_id,
  business: false,
  keyId: null,
});
