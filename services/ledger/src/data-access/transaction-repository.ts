import type { CallerContext } from '@finance/shared/context/signed-context';
import type { TransactionFilters } from '@finance/shared/contracts/ledger/transactions';
import { contextSql } from '@finance/shared/db/context-scope';
import { runPrepared, runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangedRow, changedColumns } from './changed-rows-sql.ts';
import { copyTransactions } from './copy-transactions.ts';
import { splitsJsonSql } from './split-json.ts';
import { countsInTotals } from './totals-currency.ts';
import { ENTRY_COLUMNS, type NewTransaction, type TransactionRow, VIEWED_COLUMNS } from './transaction-columns.ts';
import { isoTimestampSql, VIEW_JSON } from './transaction-json.ts';

export type { NewTransaction, TransactionRow } from './transaction-columns.ts';

const COLUMNS = ENTRY_COLUMNS.map(([name]) => name).join(', ');
const RECORD_TYPE = ENTRY_COLUMNS.map(([name, spec]) => `${name} ${spec.type}`).join(', ');

/**
 * Every column, with calendar dates as text so no driver or TZ shifts them, money as text (bigint), and the parts of
 * a split row.
 */
export const SELECT_COLUMNS = [
  't.*',
  `${splitsJsonSql('t')} as splits`,
  ...ENTRY_COLUMNS.filter(([, spec]) => spec.type === 'date').map(
    ([name]) => `to_char(t.${name}, 'YYYY-MM-DD') as ${name}`,
  ),
  ...ENTRY_COLUMNS.filter(([, spec]) => spec.type === 'bigint').map(([name]) => `t.${name}::text as ${name}`),
].join(', ');

/**
 * Only the columns the API's Transaction shows (`VIEWED_COLUMNS`), each read once, dates and money as text as in
 * `SELECT_COLUMNS` and timestamps already in ISO form: a plain read of the records' values. The list and the bill
 * have PostgreSQL write the records instead (`VIEW_JSON`); this is what the bench's floors read and what
 * `transactionView` turns into the text `VIEW_JSON` must equal
 * (`services/ledger/test/transactions/transaction-json.test.ts`).
 */
export const VIEW_SELECT_COLUMNS = VIEWED_COLUMNS.map(([name, spec]) => {
  if (spec.type === 'date') return `to_char(t.${name}, 'YYYY-MM-DD') as ${name}`;
  if (spec.type === 'bigint') return `t.${name}::text as ${name}`;
  // the view need not parse a date only to print it again
  if (spec.type === 'timestamptz') return `${isoTimestampSql(`t.${name}`)} as ${name}`;
  return `t.${name}`;
}).join(', ');

type RawRow = Omit<TransactionRow, 'amount'> & { amount: string };

const toRow = <Extra>(raw: RawRow & Extra): TransactionRow & Extra => ({ ...raw, amount: Number(raw.amount) });

/** Transaction rows of a statement, with `Extra` for the columns it selects beyond the stored ones. */
export async function selectTransactions<Extra extends object = Record<never, never>>(
  em: EntityManager,
  sql: string,
  params: unknown[],
): Promise<Array<TransactionRow & Extra>> {
  return (await runSql<RawRow & Extra>(em, sql, params)).map(toRow);
}

/** One statement for any number of rows: the rows travel as one JSON parameter. */
const insertSql = (returning: string, where = '') =>
  `insert into transactions as t (${COLUMNS}, created_at, updated_at)
   select ${COLUMNS}, now(), now() from json_to_recordset(?::json) as r(${RECORD_TYPE})${where ? ` where ${where}` : ''}
   on conflict (connected_transaction_id, series_index) where connected_transaction_id is not null do nothing
   returning ${returning}`;

export async function insertTransactions(em: EntityManager, rows: NewTransaction[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = await runSql<{ id: string }>(em, insertSql('t.id'), [JSON.stringify(rows)]);
  return new Set(result.map((row) => row.id));
}

/** The same insert handing back the stored rows as `select ${SELECT_COLUMNS}` reads them (no second read). */
export async function insertReturningRows(em: EntityManager, rows: NewTransaction[]): Promise<TransactionRow[]> {
  if (rows.length === 0) return [];
  return selectTransactions(em, insertSql(SELECT_COLUMNS), [JSON.stringify(rows)]);
}

/**
 * The rows of an import, handing back what their events and the caller need, in their order: the rows of a series
 * or transfer by the insert (a pair already taken is skipped), the rest (nearly all) by COPY inside the same
 * transaction: a statement's batch of 2,000 rows in 87 ms against the insert's 148 (docs/performance.md).
 */
export async function insertReturningChanged(
  em: EntityManager,
  rows: NewTransaction[],
): Promise<Array<ChangedRow & { paid: boolean }>> {
  const paired = rows.filter((row) => row.connected_transaction_id !== null);
  const inserted = paired.length
    ? await runSql<ChangedRow & { paid: boolean }>(em, insertSql(`${changedColumns()}, t.paid`), [
        JSON.stringify(paired),
      ])
    : [];
  await copyTransactions(
    em,
    rows.filter((row) => row.connected_transaction_id === null),
  );
  const byId = new Map(inserted.map((row) => [row.id, row]));
  return rows.flatMap((row) => {
    if (row.connected_transaction_id !== null) return byId.get(row.id) ?? [];
    const { id, date, amount, is_expense, category_id, subcategory_id, type, paid } = row;
    return [{ id, date, amount, is_expense, category_id, subcategory_id, type, splits: null, paid }];
  });
}

/** An outbox row written by the same statement as the change it announces. */
export interface OutboxInsert {
  id: string;
  type: string;
  payload: unknown;
}

/** `insertWithEvent`'s statement, one text per shape: built once, so the prepared statement is found at once. */
const insertWithEventTexts = new Map<string, string>();

function insertWithEventSql(scopeSql: string, withAccount: boolean): string {
  const key = `${withAccount}:${scopeSql}`;
  let sql = insertWithEventTexts.get(key);
  if (!sql) {
    const account = withAccount
      ? `account as (select id from accounts where id = ? and deleted_at is null and ${scopeSql} for key share), `
      : '';
    sql = `with ${account}inserted as (${insertSql('t.*', withAccount ? 'exists (select 1 from account)' : '')}),
     event as (insert into outbox_events (id, type, payload) select ?, ?, ?::json where exists (select 1 from inserted))
     select ${VIEW_JSON.select} as view from inserted t ${VIEW_JSON.from} where t.id = ?`;
    insertWithEventTexts.set(key, sql);
  }
  return sql;
}

/**
 * A create in one statement (one round trip, no unit of work): the holding account is checked the way
 * `visibleAccountIds` does (live, the caller's, KEY SHARE against a concurrent deletion), the rows are inserted
 * only if it passed, and their outbox event only if rows were inserted. Answers the API record of the first row
 * as PostgreSQL writes it (`VIEW_JSON`: one column back instead of the row's 51, none parsed), or null: the
 * account is not the caller's and nothing was written.
 */
export async function insertWithEvent(
  em: EntityManager,
  ctx: CallerContext,
  rows: NewTransaction[],
  accountId: string | null,
  event: OutboxInsert,
): Promise<string | null> {
  if (rows.length === 0) return null;
  const scope = contextSql(ctx);
  const [first] = await runPrepared<{ view: string }>(em, insertWithEventSql(scope.sql, accountId !== null), [
    ...(accountId !== null ? [accountId, ...scope.params] : []),
    JSON.stringify(rows),
    event.id,
    event.type,
    JSON.stringify(event.payload),
    rows[0].id,
  ]);
  return first?.view ?? null;
}

export async function insertTags(em: EntityManager, transactionIds: string[], tagIds: string[]): Promise<void> {
  if (transactionIds.length === 0 || tagIds.length === 0) return;
  await runSql(
    em,
    `insert into transaction_tags (transaction_id, tag_id)
     select t, g from unnest(?::uuid[]) t cross join unnest(?::uuid[]) g on conflict do nothing`,
    [`{${transactionIds.join(',')}}`, `{${tagIds.join(',')}}`],
  );
}

export async function replaceTags(em: EntityManager, transactionIds: string[], tagIds: string[]): Promise<void> {
  if (transactionIds.length === 0) return;
  await runSql(em, 'delete from transaction_tags where transaction_id in (?)', [transactionIds]);
  await insertTags(em, transactionIds, tagIds);
}

/** Live transactions of the caller's context with these ids (others' ids simply do not come back). */
export async function findLive(
  em: EntityManager,
  ctx: CallerContext,
  ids: string[],
  lock = false,
): Promise<TransactionRow[]> {
  if (ids.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return selectTransactions(
    em,
    `select ${SELECT_COLUMNS} from transactions t
     where t.id in (?) and t.deleted_at is null and ${scope.sql} order by t.date, t.id${lock ? ' for update' : ''}`,
    [ids, ...scope.params],
  );
}

export async function findOneLive(em: EntityManager, ctx: CallerContext, id: string, lock = false) {
  return (await findLive(em, ctx, [id], lock))[0] ?? null;
}

/** Live rows by id, ordered by date then creation (ids are caller-owned already). */
export async function loadByIds(em: EntityManager, ids: string[]): Promise<TransactionRow[]> {
  if (ids.length === 0) return [];
  return selectTransactions(
    em,
    `select ${SELECT_COLUMNS} from transactions t where t.id in (?) and t.deleted_at is null order by t.date, t.id`,
    [ids],
  );
}

/** A row as its API record in JSON text (`VIEW_JSON`), with the keys a page's cursor needs. */
export interface ViewJsonRow {
  view: string;
  date: string;
  id: string;
}

/** Up to `limit + 1` rows after the cursor, each already the JSON of its API record. */
export async function listPage(
  em: EntityManager,
  ctx: CallerContext,
  filters: TransactionFilters,
  limit: number,
  after: [string, string] | null,
): Promise<ViewJsonRow[]> {
  const statement = listPageStatement(ctx, filters, limit, after);
  return runPrepared<ViewJsonRow>(em, statement.sql, statement.params);
}

/**
 * The statement of `listPage` (`?` placeholders, scalar values, ledger schema on the search path). The bench
 * runs it with `select: 'columns'` (the viewed columns, as a plain read of the page would) as its floor.
 */
export function listPageStatement(
  ctx: CallerContext,
  filters: TransactionFilters,
  limit: number,
  after: [string, string] | null,
  select: 'json' | 'columns' = 'json',
): { sql: string; params: Array<string | number | boolean> } {
  const scope = contextSql(ctx, 't');
  const where = ['t.deleted_at is null', scope.sql];
  const params: Array<string | number | boolean> = [...scope.params];
  const equal: Array<[keyof TransactionFilters, string]> = [
    ['account_id', 't.account_id = ?'],
    ['credit_card_id', 't.credit_card_id = ?'],
    ['category_id', 't.category_id = ?'],
    ['is_expense', 't.is_expense = ?'],
    ['paid', 't.paid = ?'],
    ['type', 't.type = ?'],
    ['start_date', 't.date >= ?::date'],
    ['end_date', 't.date <= ?::date'],
  ];
  for (const [key, clause] of equal) {
    if (filters[key] === undefined) continue;
    where.push(clause);
    params.push(filters[key]);
  }
  if (after) {
    where.push('(t.date, t.id) > (?::date, ?::uuid)');
    params.push(...after);
  }
  params.push(limit + 1);
  const columns =
    select === 'json'
      ? `${VIEW_JSON.select} as view, to_char(t.date, 'YYYY-MM-DD') as date, t.id`
      : VIEW_SELECT_COLUMNS;
  return {
    sql: `select ${columns} from transactions t ${select === 'json' ? VIEW_JSON.from : ''}
     where ${where.join(' and ')} order by t.date, t.id limit ?`,
    params,
  };
}

export type Scope = 'THIS' | 'THIS_AND_NEXT' | 'ALL';

export interface ScopeSeed {
  id: string;
  scope: Scope;
  /** THIS_AND_NEXT: members dated on or after this date. */
  from: string;
}

/**
 * The live members each seed reaches: itself for THIS or outside a series, its series (optionally from a
 * date) otherwise. Returns (member id, seed id); a member reached twice keeps its first seed.
 */
export async function membersInScope(
  em: EntityManager,
  seeds: ScopeSeed[],
): Promise<Array<{ id: string; seed_id: string; date: string }>> {
  if (seeds.length === 0) return [];
  return runSql(
    em,
    `select distinct on (m.id) m.id, s.id as seed_id, to_char(m.date, 'YYYY-MM-DD') as date
     from json_to_recordset(?::json) as s(id uuid, scope text, "from" date, ord int)
     join transactions g on g.id = s.id
     -- the seed itself by its id, its series by the series index: each part through its own index
     cross join lateral (
       select t.id, t.date from transactions t
        where t.id = g.id and t.deleted_at is null
          and (s.scope <> 'THIS_AND_NEXT' or g.connected_transaction_id is null or t.date >= s."from")
       union all
       select t.id, t.date from transactions t
        where g.connected_transaction_id is not null and s.scope <> 'THIS'
          and t.connected_transaction_id = g.connected_transaction_id and t.deleted_at is null
          and (s.scope = 'ALL' or t.date >= s."from")
     ) m
     order by m.id, s.ord`,
    [JSON.stringify(seeds.map((seed, ord) => ({ ...seed, ord })))],
  );
}

/** Live members of the series of these transactions (transfer pairs, installment purchases). */
export async function liveSeriesMembers(em: EntityManager, seriesIds: string[]): Promise<string[]> {
  if (seriesIds.length === 0) return [];
  const rows = await runSql<{ id: string }>(
    em,
    'select id from transactions where connected_transaction_id in (?) and deleted_at is null',
    [seriesIds],
  );
  return rows.map((row) => row.id);
}

export async function softDelete(em: EntityManager, ids: string[]): Promise<TransactionRow[]> {
  if (ids.length === 0) return [];
  return selectTransactions(
    em,
    `update transactions t set deleted_at = now(), updated_at = now()
     where t.id in (?) and t.deleted_at is null returning ${SELECT_COLUMNS}`,
    [ids],
  );
}

/**
 * Turns these live entries into plain ones where they are: no transfer or bill-payment role, no series link,
 * no bill. For the leg of a transfer or a bill payment that touched an account that survives the deletion
 * of its counterpart (the money did leave or reach the bank).
 */
export async function makePlainEntries(em: EntityManager, ids: string[]): Promise<TransactionRow[]> {
  if (ids.length === 0) return [];
  return selectTransactions(
    em,
    `update transactions t set type = 'FIXED', connected_transaction_id = null, series_index = null,
       is_bill_payment = false, bill_id = null, billed_at = null, updated_at = now()
     where t.id in (?) and t.deleted_at is null returning ${SELECT_COLUMNS}`,
    [ids],
  );
}

/** SQL of `alias.user_edited_fields` plus the names in the text-array parameter (sorted, each once). */
export const addEditedFieldsSql = (alias: string) =>
  `array(select distinct f from unnest(${alias}.user_edited_fields || ?::text[]) as f order by f)`;

/** Ids of live accounts of the caller's context among these. */
export async function visibleAccountIds(em: EntityManager, ctx: CallerContext, ids: string[]): Promise<Set<string>> {
  const scope = contextSql(ctx);
  const rows = await runSql<{ id: string }>(
    em,
    // KEY SHARE: an account deletion (FOR UPDATE) waits for this writer to commit, or this writer sees it deleted
    `select id from accounts where id in (?) and deleted_at is null and ${scope.sql} order by id for key share`,
    [ids, ...scope.params],
  );
  return new Set(rows.map((row) => row.id));
}

/** Net of paid, balance-counting live entries per account, in cents. */
export async function paidNetByAccount(em: EntityManager, accountIds: string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const statement = paidNetStatement(accountIds);
  const rows = await runSql<{ account_id: string; net: string }>(em, statement.sql, statement.params);
  return new Map(rows.map((row) => [row.account_id, Number(row.net)]));
}

/** The statement of `paidNetByAccount` (the bench's forecast floor runs it too). */
export function paidNetStatement(accountIds: string[]): { sql: string; params: unknown[] } {
  return {
    sql: `select account_id, sum(case when is_expense then -amount else amount end)::text as net
     from transactions
     where account_id in (?) and deleted_at is null and paid and show_on_balance and ${countsInTotals()}
     group by account_id`,
    params: [accountIds],
  };
}
