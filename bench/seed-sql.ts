import type pg from 'pg';

/** A merchant as open-banking data names it: the rules match on these. */
export interface Merchant {
  name: string;
  cnpj: string;
  cnae: string;
}

export interface ContextRows {
  userId: string;
  profileId: string | null;
  /** How many rows this statement writes. */
  count: number;
  accountIds: string[];
  /** Empty: every row goes to an account. */
  cardIds: string[];
  merchants: Merchant[];
  /** First and last day of the year of data. */
  start: string;
  days: number;
  /** Keeps ids of separate statements apart (uuidv7-like: creation time, then a digest of salt and row). */
  salt: string;
}

// uuidv7 layout (48-bit ms timestamp, version 7, variant 8) so ids sort by creation as the API's ids do
const uuid7 = (ms: string, digest: string) =>
  `(lpad(to_hex(${ms}), 12, '0') || '7' || substr(${digest}, 1, 3) || '8' || substr(${digest}, 4, 15))::uuid`;

/** Every column the ledger writes for an imported, paid, single transaction; card rows also carry their bill. */
const INSERT_COLUMNS = `id, user_id, profile_id, amount, date, title, is_expense, paid, paid_at, type, installments,
  currency, account_id, credit_card_id, bill_id, billed_at, category_id, subcategory_id, merchant_name,
  merchant_cnpj, merchant_cnae, operation_type, created_at, updated_at`;

/**
 * One year of a context's transactions in one statement: 10% income on accounts, 40% card purchases
 * (each in the bill whose period holds its date), the rest account expenses; system subcategories in
 * turn, every 11th row with a category only, every 23rd uncategorized.
 */
export async function insertContextTransactions(db: pg.ClientBase, rows: ContextRows): Promise<number> {
  const result = await db.query(
    `with exp as (
       select array_agg(s.id order by s.id) as sub_ids, array_agg(s.category_id order by s.id) as cat_ids
       from ledger.subcategories s join ledger.categories c on c.id = s.category_id
       where s.user_id is null and c.user_id is null and c.is_expense and s.deleted_at is null),
     inc as (
       select array_agg(s.id order by s.id) as sub_ids, array_agg(s.category_id order by s.id) as cat_ids
       from ledger.subcategories s join ledger.categories c on c.id = s.category_id
       where s.user_id is null and c.user_id is null and not c.is_expense and s.deleted_at is null),
     base as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms),
     g as (
       select n, md5($10 || n) as digest,
              $7::date + ((n - 1)::bigint * $8 / $3)::int as date,
              n % 10 = 0 as income,
              cardinality($5::uuid[]) > 0 and n % 20 between 1 and 8 as on_card,
              1 + (n * 7) % cardinality($6::text[]) as m
       from generate_series(1, $3::int) n),
     r as (
       select g.*, not income as is_expense,
              case when on_card then ($5::uuid[])[1 + n % cardinality($5::uuid[])] end as card_id,
              case when not on_card then ($4::uuid[])[1 + n % cardinality($4::uuid[])] end as account_id,
              case when n % 23 = 0 then null
                   when income then inc.cat_ids[1 + n % cardinality(inc.cat_ids)]
                   else exp.cat_ids[1 + (n * 3) % cardinality(exp.cat_ids)] end as category_id,
              case when n % 23 = 0 or n % 11 = 0 then null
                   when income then inc.sub_ids[1 + n % cardinality(inc.sub_ids)]
                   else exp.sub_ids[1 + (n * 3) % cardinality(exp.sub_ids)] end as subcategory_id
       from g cross join exp cross join inc)
     insert into ledger.transactions (${INSERT_COLUMNS})
     select ${uuid7('base.ms + r.n', 'r.digest')}, $1, $2,
            case when income then 150000 + (n * 7919) % 900000 else 500 + (n * 7919) % 60000 end,
            r.date,
            case when income then 'Recebimento' else ($6::text[])[m] end,
            r.is_expense, true, r.date::timestamp at time zone 'UTC', 'FIXED', 1, 'BRL',
            r.account_id, r.card_id, b.id, b.closing_date::timestamp at time zone 'UTC',
            r.category_id, r.subcategory_id,
            case when not income then ($6::text[])[m] end,
            case when not income then ($9::text[])[m] end,
            case when not income then ($11::text[])[m] end,
            case when on_card then 'COMPRA_CARTAO' when income then 'PIX_RECEBIDO' else 'PIX_ENVIADO' end,
            to_timestamp((base.ms + r.n) / 1000.0), to_timestamp((base.ms + r.n) / 1000.0)
     from r cross join base
     left join lateral (
       select b.id, b.closing_date from billing.bills b
       where r.card_id is not null and b.credit_card_id = r.card_id and b.closing_date > r.date
       order by b.closing_date limit 1) b on true`,
    [
      rows.userId,
      rows.profileId,
      rows.count,
      rows.accountIds,
      rows.cardIds,
      rows.merchants.map((merchant) => merchant.name),
      rows.start,
      rows.days,
      rows.merchants.map((merchant) => merchant.cnpj),
      rows.salt,
      rows.merchants.map((merchant) => merchant.cnae),
    ],
  );
  return result.rowCount ?? 0;
}

export interface MerchantRows {
  userId: string;
  profileId: string | null;
  count: number;
  accountId: string;
  merchant: Merchant;
  categoryId: string;
  subcategoryId: string;
  start: string;
  days: number;
  salt: string;
}

/** Many debits of one merchant on one account over the year (the rows a rule will recategorize). */
export async function insertMerchantTransactions(db: pg.ClientBase, rows: MerchantRows): Promise<number> {
  const result = await db.query(
    `with base as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms),
     g as (select n, md5($8 || n) as digest, $9::date + ((n - 1)::bigint * $10 / $3)::int as date
           from generate_series(1, $3::int) n)
     insert into ledger.transactions (${INSERT_COLUMNS})
     select ${uuid7('base.ms + g.n', 'g.digest')}, $1, $2, 35 + (n * 7919) % 2500, g.date,
            'Tarifa ' || $5, true, true, g.date::timestamp at time zone 'UTC', 'FIXED', 1, 'BRL', $4, null, null, null, $11, $12,
            $5, $6, $7, 'TARIFA', to_timestamp((base.ms + g.n) / 1000.0), to_timestamp((base.ms + g.n) / 1000.0)
     from g cross join base`,
    [
      rows.userId,
      rows.profileId,
      rows.count,
      rows.accountId,
      rows.merchant.name,
      rows.merchant.cnpj,
      rows.merchant.cnae,
      rows.salt,
      rows.start,
      rows.days,
      rows.categoryId,
      rows.subcategoryId,
    ],
  );
  return result.rowCount ?? 0;
}

export interface InvestmentRows {
  userId: string;
  profileId: string | null;
  positions: number;
  days: number;
  /** Last snapshot day. */
  end: string;
}

/**
 * Positions, daily snapshots and the per-day yields the daily job materializes, as insights stores an
 * import of them (used only while the import path is not there).
 */
export async function insertInvestments(db: pg.ClientBase, rows: InvestmentRows): Promise<number> {
  await db.query(
    `insert into insights.investment_positions
       (id, user_id, profile_id, connection_id, investment_id, name, bank_name, type, subtype, created_at, updated_at)
     select gen_random_uuid(), $1, $2, 'bench-connection', 'bench-inv-' || n, 'Investimento ' || n,
            (array['XP Investimentos', 'BTG Pactual', 'Nubank', 'Itaú'])[1 + n % 4],
            (array['FIXED_INCOME', 'FIXED_INCOME', 'INVESTMENT_FUND', 'EQUITY'])[1 + n % 4],
            (array['TREASURY', 'CDB', 'MULTIMARKET', 'STOCK'])[1 + n % 4], now(), now()
     from generate_series(1, $3::int) n`,
    [rows.userId, rows.profileId, rows.positions],
  );
  const snapshots = await db.query(
    `insert into insights.investment_snapshots (position_id, date, balance_cents, created_at, updated_at)
     select p.id, $4::date - d, round((100000 + (p.n * 7919) % 5000000) * power(1.0004, $3 - d)), now(), now()
     from (select id, substring(investment_id from 11)::int as n from insights.investment_positions
           where user_id = $1 and profile_id is not distinct from $2) p
     cross join generate_series(0, $3::int - 1) d`,
    [rows.userId, rows.profileId, rows.days, rows.end],
  );
  await db.query(
    `insert into insights.investment_daily_yields
       (position_id, date, yield_cents, previous_date, balance_cents, created_at, updated_at)
     select position_id, date, balance_cents - previous_balance, previous_date, balance_cents, now(), now()
     from (select s.position_id, s.date, s.balance_cents,
                  lag(s.balance_cents) over w as previous_balance, lag(s.date) over w as previous_date
           from insights.investment_snapshots s join insights.investment_positions p on p.id = s.position_id
           where p.user_id = $1 and p.profile_id is not distinct from $2
           window w as (partition by s.position_id order by s.date)) y
     where previous_date is not null`,
    [rows.userId, rows.profileId],
  );
  return snapshots.rowCount ?? 0;
}
