import pg from 'pg';

/**
 * One in ten of the person's transactions split in three parts (half, a third, the rest; the leftover cents to the
 * first), each part in a system subcategory of the transaction's direction, written with set-based SQL as the
 * ledger writes them. Once per database; `setSplit` then turns the split rows on and off (their parts stay).
 */
export async function seedSplits(databaseUrl: string, userId: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const existing = await db.query('select count(*)::int as n from ledger.transaction_splits where context_id = $1', [
      userId,
    ]);
    if (existing.rows[0].n > 0) return existing.rows[0].n / 3;
    const result = await db.query(
      `with subs as (
         select c.is_expense, array_agg(s.id order by s.id) as sub_ids, array_agg(s.category_id order by s.id) as cat_ids
         from ledger.subcategories s join ledger.categories c on c.id = s.category_id
         where s.user_id is null and c.user_id is null and s.deleted_at is null group by c.is_expense),
       picked as (
         select t.id, t.user_id, t.profile_id, t.amount, t.is_expense,
                row_number() over (order by t.id) as n
         from ledger.transactions t
         where t.context_id = $1 and t.deleted_at is null and t.amount >= 3 and t.date <= current_date),
       chosen as (select * from picked where n % 10 = 0),
       parts as (
         select c.*, p.position,
                case p.position when 0 then c.amount - (c.amount / 3) - (c.amount * 3 / 10)
                                when 1 then c.amount * 3 / 10 else c.amount / 3 end as part_amount
         from chosen c cross join generate_series(0, 2) as p(position))
       insert into ledger.transaction_splits (id, user_id, profile_id, transaction_id, position, amount, category_id,
         subcategory_id, created_at, updated_at)
       select gen_random_uuid(), parts.user_id, parts.profile_id, parts.id, parts.position, parts.part_amount,
              subs.cat_ids[1 + (parts.n + parts.position * 7) % cardinality(subs.cat_ids)],
              subs.sub_ids[1 + (parts.n + parts.position * 7) % cardinality(subs.sub_ids)], now(), now()
       from parts join subs on subs.is_expense = parts.is_expense`,
      [userId],
    );
    await setSplit(databaseUrl, userId, true);
    await db.query('vacuum (analyze) ledger.transaction_splits');
    return (result.rowCount ?? 0) / 3;
  } finally {
    await db.end();
  }
}

/** The person's seeded split rows count by their parts (`on`) or as whole entries; a vacuum keeps reads even. */
export async function setSplit(databaseUrl: string, userId: string, on: boolean): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `update ledger.transactions t set is_split = $2
       where t.context_id = $1 and t.is_split <> $2
         and exists (select 1 from ledger.transaction_splits s where s.transaction_id = t.id)`,
      [userId, on],
    );
    await db.query('vacuum (analyze) ledger.transactions');
  } finally {
    await db.end();
  }
}
