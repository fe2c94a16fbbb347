import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The one raw-SQL helper of every service: runs a statement with `?` parameters and returns its rows, always
 * in the transaction open on `em` (`em.getTransactionContext()`), so a read inside a use case's transaction
 * sees its writes and takes its locks there. Only `data-access/` calls it (the layer lint enforces it).
 */
export function runSql<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params as unknown[], 'all', em.getTransactionContext());
}
