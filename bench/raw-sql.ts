import type { CallerContext } from '@finance/shared/context/signed-context';
import pg from 'pg';
import { subcategoryTotalsStatement } from '../services/ledger/src/data-access/aggregates/by-subcategory.ts';
import { listPageStatement } from '../services/ledger/src/data-access/transaction-repository.ts';

export interface SqlLoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/**
 * The raw SQL baseline: `connections` pg clients run the statement back to back for `seconds`, as
 * autocannon's connections run requests; the figures are computed the same way (requests per second,
 * p50/p99 of the latency in ms).
 */
export async function sqlLoad(
  databaseUrl: string,
  statement: { text: string; values: unknown[] },
  connections: number,
  seconds: number,
): Promise<SqlLoadResult> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      // the services' statements name their tables unqualified, resolved on the ledger's search path
      const client = new pg.Client({ connectionString: databaseUrl, options: '-c search_path=ledger,public' });
      await client.connect();
      return client;
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < until) {
          const sent = performance.now();
          await client.query(statement);
          latencies.push(performance.now() - sent);
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Times one statement inside a transaction that is rolled back, so the data stays as the API left it. */
export async function timeRolledBack(
  databaseUrl: string,
  statement: { text: string; values: unknown[] },
): Promise<{ ms: number; rows: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const started = performance.now();
    const result = await client.query(statement);
    const ms = performance.now() - started;
    await client.query('rollback');
    return { ms, rows: result.rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

const personal = (userId: string): CallerContext => ({ userId, profileId: null, business: false, keyId: null });

/** A production statement (`?` placeholders, as the services run it through MikroORM) in pg's `$n` form. */
export function fromProduction(statement: { sql: string; params: unknown[] }): { text: string; values: unknown[] } {
  let n = 0;
  return { text: statement.sql.replace(/\?/g, () => `$${++n}`), values: statement.params };
}

/** The ledger's own page statement of `GET /v1/transactions` (imported, so the bench measures what runs). */
export const listStatement = (userId: string, from: string, to: string, limit: number) =>
  fromProduction(listPageStatement(personal(userId), { start_date: from, end_date: to }, limit, null));

/** The floor of a bill's listing: its live transactions with their category and subcategory rows. */
export const billStatement = (billId: string) => ({
  text: `select t.*, to_jsonb(c) as category, to_jsonb(s) as subcategory
         from ledger.transactions t
         left join ledger.categories c on c.id = t.category_id
         left join ledger.subcategories s on s.id = t.subcategory_id
         where t.bill_id = $1 and t.deleted_at is null
         order by t.date, t.id`,
  values: [billId],
});

/** The ledger's subcategory aggregate (`totalsBySubcategory`) for a personal context, imported from it. */
export const subcategoryStatement = (userId: string, from: string, to: string) =>
  fromProduction(subcategoryTotalsStatement(personal(userId), { start_date: from, end_date: to }));

/** The bulk recategorization as one UPDATE of the matched rows (no batches, no events, no job). */
export const recategorizeStatement = (
  profileId: string,
  cnpjDigits: string,
  categoryId: string,
  subcategoryId: string | null,
) => ({
  text: `update ledger.transactions t set category_id = $3, subcategory_id = $4, updated_at = now()
         where coalesce(t.profile_id, t.user_id) = $1 and t.profile_id = $1 and t.deleted_at is null
           and t.is_expense and t.merchant_cnpj_digits = $2
           and (t.category_id is distinct from $3 or t.subcategory_id is distinct from $4)`,
  values: [profileId, cnpjDigits, categoryId, subcategoryId],
});
