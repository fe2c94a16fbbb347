import pg from 'pg';

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
      const client = new pg.Client({ connectionString: databaseUrl });
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

/** PRODUCT.md listing: the ledger's page statement (filters, order, limit + 1), schema-qualified. */
export const listStatement = (userId: string, from: string, to: string, limit: number) => ({
  text: `select t.*, to_char(t.date, 'YYYY-MM-DD') as date, to_char(t.competence_date, 'YYYY-MM-DD') as competence_date,
           t.amount::text as amount
         from ledger.transactions t
         where t.deleted_at is null and coalesce(t.profile_id, t.user_id) = $1 and t.profile_id is null and t.user_id = $1
           and t.date >= $2::date and t.date <= $3::date
         order by t.date, t.id limit $4`,
  values: [userId, from, to, limit + 1],
});

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

/** The ledger's subcategory aggregate (domain/aggregates/by-subcategory.ts) for a personal context. */
export const subcategoryStatement = (userId: string, from: string, to: string) => ({
  text: `with cfg as (
           select coalesce(bool_or(include_bill_payments), false) as include_bill_payments,
                  coalesce(bool_or(include_transfers), false) as include_transfers
           from ledger.personal_configs where profile_id is null and user_id = $1),
         sums as (
           select t.is_expense, t.subcategory_id is not null as by_sub,
                  coalesce(t.subcategory_id, t.category_id) as id, sum(t.amount) as value
           from ledger.transactions t cross join cfg
           where t.profile_id is null and t.user_id = $1 and t.deleted_at is null and t.category_id is not null
             and t.date between cast($2 as date) and cast($3 as date)
             and (cfg.include_transfers or t.type <> 'TRANSFER')
             and (cfg.include_bill_payments or not t.is_bill_payment)
           group by 1, 2, 3)
         select sums.id, sums.is_expense, sums.value::text as value,
                coalesce(s.name, c.name) as title,
                coalesce(s.is_essential, c.is_essential) as is_essential,
                coalesce(s.icon_name, c.icon_name) as icon_name,
                coalesce(s.icon_background_color, c.icon_background_color) as icon_background_color,
                case when sums.by_sub then s.image else c.image end as image
         from sums
         left join ledger.subcategories s on sums.by_sub and s.id = sums.id
         left join ledger.categories c on not sums.by_sub and c.id = sums.id
         order by sums.value desc, title, sums.id`,
  values: [userId, from, to],
});

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
