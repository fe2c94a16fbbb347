import type { TestStack } from './stack.ts';

/**
 * Row count and a hash of every row of every table in the given schemas: proves "nothing changed" without
 * the statistics views, which other connections flush lazily (up to seconds later).
 */
export async function tableContents(stack: TestStack, schemas: string[] = ['ledger', 'billing', 'insights']) {
  const tables = await stack.sql<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_schema = any($1) and table_type = 'BASE TABLE' order by 1`,
    [schemas],
  );
  const contents: Record<string, unknown> = {};
  for (const { name } of tables) {
    const [row] = await stack.sql(
      `select count(*)::int as n, md5(coalesce(string_agg(md5(t::text), '' order by md5(t::text)), '')) as hash
       from ${name} t`,
    );
    contents[name] = row;
  }
  return contents;
}
