import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryResultRow } from 'pg';

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

/** A statement's text with `$n` placeholders and the name PostgreSQL keeps its plan under. */
const prepared = new Map<string, { name: string; text: string }>();

function preparedStatement(sql: string): { name: string; text: string } {
  let statement = prepared.get(sql);
  if (!statement) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    statement = { name: `p_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
    prepared.set(sql, statement);
  }
  return statement;
}

/**
 * `runSql` for a hot statement: outside a transaction it runs as a named prepared statement on the ORM's own
 * pool, so PostgreSQL parses and plans it once per connection instead of on every call (MikroORM sends each
 * statement as text with its values inlined: for a create, planning was half of PostgreSQL's work). Inside a
 * transaction it goes through `runSql`. Parameters are scalars (`?` only, no lists or `??` identifiers).
 * Only for statements whose best plan does not depend on their values (an insert, a keyed page): after five runs
 * PostgreSQL may keep a generic plan, and the subcategory aggregate measured 30 % slower that way.
 */
export async function runPrepared<T extends QueryResultRow = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: ReadonlyArray<string | number | boolean | null>,
): Promise<T[]> {
  if (em.getTransactionContext()) return runSql<T>(em, sql, params);
  const { name, text } = preparedStatement(sql);
  const pool = await em.getConnection().getNativeClient();
  const started = Date.now();
  const result = await pool.query<T>({ name, text, values: [...params] });
  em.config.getLogger().logQuery({ query: text, params: [...params], took: Date.now() - started, level: 'info' });
  return result.rows;
}
