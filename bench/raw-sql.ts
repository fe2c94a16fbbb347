import type { CallerContext } from '@finance/shared/context/signed-context';
import { sessionOptions } from '@finance/shared/db/orm';
import { numberedStatement } from '@finance/shared/db/sql';
import pg from 'pg';
import { cardsWithUnrolledBillsStatement } from '../services/billing/src/data-access/card-repository.ts';
import { reminderPlansStatement } from '../services/insights/src/data-access/goal-repository.ts';
import { subcategoryTotalsStatement } from '../services/ledger/src/data-access/aggregates/by-subcategory.ts';
import { summaryStatement } from '../services/ledger/src/data-access/aggregates/summary.ts';
import { billRowsStatement, billTotalsStatement } from '../services/ledger/src/data-access/bill-contents-reads.ts';
import {
  cashFlowAccountsStatement,
  openSeriesStatement,
  unpaidEntriesStatement,
} from '../services/ledger/src/data-access/cash-flow-reads.ts';
import { isoTimestampSql } from '../services/ledger/src/data-access/transaction-json.ts';
import { listPageStatement, paidNetStatement } from '../services/ledger/src/data-access/transaction-repository.ts';

export interface SqlLoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

export type Statement = { text: string; values: unknown[] };

/** One statement on a connection of its own, closed after: the bench's reads of the data it seeded. */
export async function queryOnce<T extends pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The raw SQL baseline: `connections` pg clients run the statement (or the statements, one after the other,
 * as one request) back to back for `seconds`, as
 * autocannon's connections run requests; the figures are computed the same way (requests per second,
 * p50/p99 of the latency in ms).
 */
export async function sqlLoad(
  databaseUrl: string,
  statement: Statement | Statement[],
  connections: number,
  seconds: number,
): Promise<SqlLoadResult> {
  const statements = Array.isArray(statement) ? statement : [statement];
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      // the services' statements name their tables unqualified, resolved on the ledger's search path
      const client = new pg.Client({ connectionString: databaseUrl, options: sessionOptions('ledger') });
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
          for (const one of statements) await client.query(one);
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
export function fromProduction(statement: { sql: string; params: unknown[] }): Statement {
  return numberedStatement(statement.sql, statement.params);
}

/**
 * The ledger's own page statement of `GET /v1/transactions` (imported: same filter, order and index), reading the
 * viewed columns as a plain read of the page would, not the JSON records the ledger has PostgreSQL write.
 */
export const listStatement = (userId: string, from: string, to: string, limit: number) =>
  fromProduction(listPageStatement(personal(userId), { start_date: from, end_date: to }, limit, null, 'columns'));

/**
 * The database work of a bill's answer, from the ledger's own builders: the bill's rows with the series totals
 * (the viewed columns, as a plain read would take them, not the JSON records the ledger has PostgreSQL write),
 * then the totals of the card's bills not yet carried (the card's available limit needs them).
 */
export const billStatements = (userId: string, cardId: string, billId: string, totalsBillIds: string[]) => [
  fromProduction(billRowsStatement(personal(userId), cardId, [billId], 'columns')),
  fromProduction(billTotalsStatement(personal(userId), totalsBillIds)),
];

/** A record's JSON text of a row of `table` (alias `x`, matched on `key`) with the API's fields: `fields` as SQL. */
const recordJoin = (table: string, alias: string, key: string, fields: string) =>
  `left join lateral (select row_to_json(r)::text as json from (select ${fields} from ${table} x where x.id = ${key}) r) ${alias} on true`;

const stamps = `${isoTimestampSql('x.created_at')} as "createdAt", ${isoTimestampSql('x.updated_at')} as "updatedAt"`;

/**
 * The bill's answer as the contract shapes it, written whole by PostgreSQL: each row the ledger's own record
 * (`billRowsStatement`'s JSON) with the account, category, subcategory, card and tag records of the API and the
 * bill's extras joined in, one text per row; then the same totals. A bare server answering these texts as they
 * are sends as many bytes as ours (the account's balance and the card's available limit are stand-ins of the
 * same size: computing them is ours). What the spec's record costs, apart from our services and hops.
 */
export function billRecordsStatements(userId: string, cardId: string, billId: string, totalsBillIds: string[]) {
  const rows = billRowsStatement(personal(userId), cardId, [billId], 'json');
  const account = recordJoin(
    'ledger.accounts',
    'account',
    'b.account_id',
    `x.id, x.name, x.logo, x.initial_balance as balance, x.include_total_balance, x.is_default, x.type, x.subtype,
     x.profile_id, x.user_id, ${stamps}`,
  );
  const category = recordJoin(
    'ledger.categories',
    'category',
    'b.category_id',
    `x.id, x.name, x.is_expense, x.is_essential, x.is_hidden, x.icon, x.icon_name, x.icon_background_color, x.image,
     x.profile_id, x.user_id, ${stamps}`,
  );
  const subcategory = recordJoin(
    'ledger.subcategories',
    'subcategory',
    'b.subcategory_id',
    `x.id, x.category_id, x.name, x.is_essential, x.is_hidden, x.icon_name, x.icon_background_color, x.image,
     x.profile_id, x.user_id, ${stamps}`,
  );
  const card = recordJoin(
    'billing.credit_cards',
    'card',
    '?',
    `x.id, x.name, x.logo, x.account_id, x.closing_day::text as closing_date, x.due_day::text as expiring_date,
     x.limit, case when x.is_unlimited then null else x.limit end as available_limit, x.is_unlimited,
     x.needs_closing_date_review, x.profile_id, x.user_id, ${stamps}`,
  );
  const tags = `left join lateral (select json_agg(r)::text as json from (
      select x.id, x.name, x.color, x.profile_id, x.user_id, ${stamps}
      from ledger.transaction_tags l join ledger.tags x on x.id = l.tag_id where l.transaction_id = b.id) r) tags on true`;
  const record = `left(b.view, -1) || ',"account":' || coalesce(account.json, 'null')
    || ',"category":' || coalesce(category.json, 'null') || ',"subcategory":' || coalesce(subcategory.json, 'null')
    || ',"tags":' || coalesce(tags.json, '[]') || ',"total":' || b.total || ',"credit_card":' || card.json
    || ',"projected_date":' || coalesce(to_json(b.billed_at)::text, 'null')
    || ',"projected_installment":' || coalesce(b.installment_number::text, 'null')
    || ',"reconciled_with":null,"reconciles":[]}'`;
  return [
    numberedStatement(
      `select ${record} as record
       from (select *, row_number() over () as position from (${rows.sql}) rows) b
       ${account} ${category} ${subcategory} ${tags} ${card}
       order by b.position`,
      [...rows.params, cardId],
    ),
    fromProduction(billTotalsStatement(personal(userId), totalsBillIds)),
  ];
}

/** The ledger's subcategory aggregate (`totalsBySubcategory`) for a personal context, imported from it. */
export const subcategoryStatement = (userId: string, from: string, to: string) =>
  fromProduction(subcategoryTotalsStatement(personal(userId), { start_date: from, end_date: to }));

/**
 * The ledger's summary statement (`summaryOf`) for a personal context, imported from it, with the bills open on
 * the period's last day (what billing answers the summary's call): the database work of the summary's answer.
 */
export const summaryStatementOf = (userId: string, from: string, to: string, openBillIds: string[]) =>
  fromProduction(summaryStatement(personal(userId), { start_date: from, end_date: to, open_bill_ids: openBillIds }));

/** The bills open on a day (the first closing on or after it, per card), as the summary's baseline takes them. */
export async function openBillIds(databaseUrl: string, userId: string, day: string): Promise<string[]> {
  const rows = await queryOnce<{ id: string }>(
    databaseUrl,
    `select distinct on (credit_card_id) id from billing.bills
      where user_id = $1 and profile_id is null and closing_date >= $2::date
      order by credit_card_id, closing_date`,
    [userId, day],
  );
  return rows.map((row) => row.id);
}

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

/** Another service's statement run on the ledger's search path: its tables named with their schema. */
function inSchema(schema: string, tables: string[], statement: { sql: string; params: unknown[] }): Statement {
  const numbered = fromProduction(statement);
  return {
    text: numbered.text.replace(new RegExp(`\\b(${tables.join('|')})\\b`, 'g'), `${schema}.$1`),
    values: numbered.values,
  };
}

/**
 * The database work of a forecast's answer, from the services' own builders where they have them: the ledger's
 * accounts with the preferences, their paid nets (the balances), the unpaid entries up to `end`, the open series with
 * their latest members; billing's live cards with their bills not carried, the ledger's totals of those; insights'
 * goal reminders. The projection itself (days, bills in order, goals) is ours.
 */
export function cashFlowStatements(
  userId: string,
  accountIds: string[],
  end: string,
  unrolledBillIds: string[],
): Statement[] {
  const ctx = personal(userId);
  return [
    fromProduction(cashFlowAccountsStatement(ctx)),
    fromProduction(paidNetStatement(accountIds)),
    fromProduction(unpaidEntriesStatement(ctx, end)),
    fromProduction(openSeriesStatement(ctx)),
    inSchema('billing', ['credit_cards', 'bills'], cardsWithUnrolledBillsStatement(ctx)),
    fromProduction(billTotalsStatement(ctx, unrolledBillIds)),
    inSchema('insights', ['goals', 'goal_reminders'], reminderPlansStatement(ctx)),
  ];
}
