import type pg from 'pg';

/** The schemas whose tables hold contexts' data (the gateway's hold users and keys, not a context's records). */
const SCHEMAS = ['ledger', 'billing', 'insights'];

/** Tables without `context_id` whose rows belong to a context through this column (no foreign key says so). */
const ROWS_OF: Record<string, string> = {
  'ledger.card_calendars': 'credit_card_id',
  'ledger.bill_rollover_entries': 'source_bill_id',
  'insights.context_time_zones': 'context_id',
};

/** Columns unique across every context, made unique per copy. */
const PER_COPY: Record<string, Record<string, string>> = {
  'insights.notifications': { dedupe_key: `dedupe_key || ':' || n` },
};

interface Column {
  name: string;
  type: string;
  generated: boolean;
}

export interface Table {
  name: string;
  columns: Column[];
  primaryKey: string[];
  /** The column that ties a row to the source context (`context_id`, or a parent's id). */
  owner: string;
  parents: string[];
}

/** Every table of the schemas with its columns, primary key and foreign keys. */
async function catalogue(db: pg.ClientBase): Promise<Map<string, Omit<Table, 'owner'> & { references: string[] }>> {
  const { rows: columns } = await db.query<{ tbl: string; name: string; type: string; generated: boolean }>(
    `select table_schema || '.' || table_name as tbl, column_name as name, udt_name as type,
            is_generated = 'ALWAYS' as generated
       from information_schema.columns where table_schema = any($1) order by ordinal_position`,
    [SCHEMAS],
  );
  const { rows: keys } = await db.query<{ tbl: string; kind: string; cols: string[]; parent: string | null }>(
    `select c.conrelid::regclass::text as tbl, c.contype as kind, c.confrelid::regclass::text as parent,
            array(select a.attname::text from unnest(c.conkey) k join pg_attribute a
                    on a.attrelid = c.conrelid and a.attnum = k) as cols
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = any($1) and c.contype in ('p', 'f')`,
    [SCHEMAS],
  );
  const tables = new Map<string, Omit<Table, 'owner'> & { references: string[] }>();
  for (const column of columns) {
    const table = tables.get(column.tbl) ?? {
      name: column.tbl,
      columns: [],
      primaryKey: [],
      parents: [],
      references: [],
    };
    table.columns.push({ name: column.name, type: column.type, generated: column.generated });
    tables.set(column.tbl, table);
  }
  for (const key of keys) {
    const table = tables.get(key.tbl);
    if (!table) continue;
    if (key.kind === 'p') table.primaryKey = key.cols;
    else if (key.parent && key.parent !== key.tbl) {
      table.parents.push(key.parent);
      table.references.push(`${key.cols[0]}:${key.parent}`);
    }
  }
  return tables;
}

/**
 * The tables that hold a context's rows, parents first: those with `context_id`, those whose foreign key points to
 * one of them (a goal's values, a webhook's deliveries), and the few tied by a column alone (`ROWS_OF`).
 */
export async function contextTables(db: pg.ClientBase): Promise<Table[]> {
  const all = await catalogue(db);
  const owned = new Map<string, Table>();
  for (const table of all.values()) {
    if (table.columns.some((column) => column.name === 'context_id' && column.generated))
      owned.set(table.name, { ...table, owner: 'context_id' });
    else if (ROWS_OF[table.name]) owned.set(table.name, { ...table, owner: ROWS_OF[table.name] });
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const table of all.values()) {
      if (owned.has(table.name)) continue;
      const reference = table.references.find((ref) => owned.has(ref.split(':')[1]));
      if (reference) {
        owned.set(table.name, { ...table, owner: reference.split(':')[0] });
        grew = true;
      }
    }
  }
  const ordered: Table[] = [];
  const visit = (table: Table) => {
    if (ordered.includes(table)) return;
    for (const parent of table.parents) {
      const owner = owned.get(parent);
      if (owner) visit(owner);
    }
    ordered.push(table);
  };
  for (const table of owned.values()) visit(table);
  return ordered;
}

export interface CloneResult {
  /** Rows written per table. */
  rows: Record<string, number>;
  seconds: number;
}

/**
 * Copies every row of one context (`sourceKey`: its company's id, else its user's) `copies` times, each copy a
 * context of its own: every id of the source's rows (and its user and company ids) becomes `md5(id:copy)`, in
 * every column that holds it, so each copy is whole and consistent (its transactions in its own accounts and
 * bills). The other contexts a test or the bench needs, at the cost of one statement per table.
 */
export async function cloneContext(db: pg.ClientBase, sourceKey: string, copies: number): Promise<CloneResult> {
  // one transaction: a running service's job (a bill's rollover) never sees a copy half made
  await db.query('begin');
  try {
    const result = await cloneRows(db, sourceKey, copies);
    await db.query('commit');
    return result;
  } catch (err) {
    await db.query('rollback');
    throw err;
  }
}

async function cloneRows(db: pg.ClientBase, sourceKey: string, copies: number): Promise<CloneResult> {
  const started = performance.now();
  const tables = await contextTables(db);
  await db.query('create temporary table if not exists clone_ids (id uuid primary key)');
  await db.query('truncate clone_ids');
  await db.query('insert into clone_ids values ($1)', [sourceKey]);
  const sourceOf = (table: Table) =>
    table.owner === 'context_id'
      ? { sql: `${table.owner} = $1`, params: [sourceKey] }
      : { sql: `${table.owner} in (select id from clone_ids)`, params: [] };
  // the ids of every source row first (a row's columns may point to a table cloned after it), until none is new:
  // a table tied by a column alone may come before the table it names
  for (let added = 1; added > 0; ) {
    added = 0;
    for (const table of tables) {
      const source = sourceOf(table);
      const keys = table.primaryKey.filter((name) => table.columns.find((c) => c.name === name)?.type === 'uuid');
      const owners = ['user_id', 'profile_id'].filter((name) => table.columns.some((c) => c.name === name));
      for (const column of [...keys, ...owners]) {
        const result = await db.query(
          `insert into clone_ids select distinct ${column} from ${table.name}
            where ${source.sql} and ${column} is not null on conflict do nothing`,
          source.params,
        );
        added += result.rowCount ?? 0;
      }
    }
  }
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const source = sourceOf(table);
    const columns = table.columns.filter((column) => !column.generated);
    const uuids = columns.filter((column) => column.type === 'uuid');
    const flags = uuids.map((column) => `(s."${column.name}" in (select id from clone_ids)) as "remap_${column.name}"`);
    const value = ({ name, type }: Column) =>
      PER_COPY[table.name]?.[name] ??
      (type === 'uuid'
        ? `case when "remap_${name}" then md5("${name}"::text || ':' || n)::uuid else "${name}" end`
        : `"${name}"`);
    const names = columns.map((column) => `"${column.name}"`).join(', ');
    // only the rows whose ids were collected above: one the services wrote meanwhile (a scheduled job's
    // notification) would be copied under its own id
    const keys = table.primaryKey.filter((name) => uuids.some((column) => column.name === name));
    const collected = keys.map((name) => ` and s."${name}" in (select id from clone_ids)`).join('');
    const result = await db.query(
      `insert into ${table.name} (${names})
       select ${columns.map(value).join(', ')}
         from (select s.*${flags.length ? `, ${flags.join(', ')}` : ''} from ${table.name} s where ${source.sql}${collected}) s
        cross join generate_series(1, ${copies}) n`,
      source.params,
    );
    rows[table.name] = result.rowCount ?? 0;
  }
  for (const table of tables) await db.query(`analyze ${table.name}`);
  return { rows, seconds: (performance.now() - started) / 1000 };
}
