import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';
import pg, { type QueryResultRow } from 'pg';

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
  if (params.some(sentBound)) return runBound<T>(em, sql, params);
  return em.getConnection().execute<T[]>(sql, params as unknown[], 'all', em.getTransactionContext());
}

/**
 * A text parameter this long (a bulk write's rows as one JSON text) is sent bound, not inlined: MikroORM quotes an
 * inlined value one character at a time, 2.8 s for 5 MB (a 10,000-entry statement import), against 0.1 s bound.
 */
const BOUND_PARAMETER_CHARS = 64 * 1024;

/** A long text, or bytes (`bytea`: a stored file's piece, which MikroORM would inline as text). */
const sentBound = (param: unknown) =>
  (typeof param === 'string' && param.length > BOUND_PARAMETER_CHARS) || Buffer.isBuffer(param);

/**
 * `runSql` with its long text and byte parameters bound by the driver (`$n`) and the others inlined by MikroORM as always
 * (an inlined `5` stays an integer where a bound one would leave PostgreSQL guessing its type), on the same
 * transaction (or pool), through the ORM's statement hook and logged alike.
 */
async function runBound<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const statement = em.config.get('onQuery')(sql, params as unknown[]);
  const inline: unknown[] = [];
  const bound: unknown[] = [];
  let text = '';
  let pos = 0;
  let index = 0;
  for (let at = statement.indexOf('?'); at !== -1; at = statement.indexOf('?', pos)) {
    // MikroORM's own rules: `\?` is a literal question mark, `??` an identifier
    const width = statement[at - 1] === '\\' ? 0 : statement[at + 1] === '?' ? 2 : 1;
    const param = width === 0 ? undefined : params[index++];
    if (width === 1 && sentBound(param)) {
      bound.push(param);
      text += `${statement.slice(pos, at)}$${bound.length}`;
    } else {
      if (width > 0) inline.push(param);
      text += statement.slice(pos, at + Math.max(width, 1));
    }
    pos = at + Math.max(width, 1);
  }
  text = em.getPlatform().formatQuery(text + statement.slice(pos), inline);
  const executor = (em.getTransactionContext() ?? em.getConnection().getClient()) as Kysely<unknown>;
  const started = Date.now();
  const result = await executor.executeQuery<T>(CompiledQuery.raw(text, bound));
  em.config.getLogger().logQuery({ query: text, took: Date.now() - started, level: 'info' });
  return result.rows as T[];
}

/** A statement's text with `$n` placeholders and the name PostgreSQL keeps its plan under. */
const prepared = new Map<string, { name: string; text: string }>();

function preparedStatement(sql: string, params: readonly unknown[]): { name: string; text: string } {
  let statement = prepared.get(sql);
  if (!statement) {
    // scalar parameters only: the text is the same whatever their values
    const { text } = numberedStatement(sql, params);
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
  const { name, text } = preparedStatement(sql, params);
  const pool = await em.getConnection().getNativeClient();
  const started = Date.now();
  const result = await pool.query<T>({ name, text, values: [...params] });
  em.config.getLogger().logQuery({ query: text, params: [...params], took: Date.now() - started, level: 'info' });
  return result.rows;
}

/**
 * A statement's `?` placeholders as PostgreSQL's `$n`, an array parameter spread into a list (`in (?)`), as
 * MikroORM expands them for `runSql`: for the statements that go to the driver itself (and the bench's baselines).
 */
export function numberedStatement(sql: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let index = 0;
  const text = sql.replace(/\?/g, () => {
    const param = params[index++];
    const items = Array.isArray(param) ? param : [param];
    return items.map((item) => `$${values.push(item)}`).join(', ');
  });
  return { text, values };
}

/**
 * `runSql` for a statement of thousands of rows read once: each row goes to `onRow` as the driver parses it and
 * is not kept, so a caller that encodes it at once leaves its text to the young generation's next scavenge
 * instead of holding every row's text until the last one arrives (which V8 then promotes and collects in full).
 * Inside a transaction it reads the rows through `runSql` and hands them on one by one.
 */
export async function forEachRow<T extends QueryResultRow>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  onRow: (row: T) => void,
): Promise<void> {
  if (em.getTransactionContext()) {
    for (const row of await runSql<T>(em, sql, params)) onRow(row);
    return;
  }
  const { text, values } = numberedStatement(sql, params);
  const pool: pg.Pool = await em.getConnection().getNativeClient();
  const started = Date.now();
  const client = await pool.connect();
  // a `row` listener and no callback: node-pg hands each row on and does not accumulate them
  const query = new pg.Query<T>({ text, values });
  // `onRow` runs inside the driver's socket handler: its failure is kept for the caller, the rest still read
  let rowFailure: { error: unknown } | undefined;
  query.on('row', (row: T) => {
    if (rowFailure) return;
    try {
      onRow(row);
    } catch (error) {
      rowFailure = { error };
    }
  });
  const done = new Promise<void>((resolve, reject) => query.on('end', () => resolve()).on('error', reject));
  client.query(query);
  // a connection whose statement failed is dropped, not handed to the next caller
  await done.then(
    () => client.release(),
    (error: Error) => {
      client.release(error);
      throw error;
    },
  );
  if (rowFailure) throw rowFailure.error;
  em.config.getLogger().logQuery({ query: text, params: values, took: Date.now() - started, level: 'info' });
}
