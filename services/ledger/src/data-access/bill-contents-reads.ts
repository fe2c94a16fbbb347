import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { forEachRow, runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isoTimestampSql, VIEW_JSON } from './transaction-json.ts';
import { VIEW_SELECT_COLUMNS } from './transaction-repository.ts';

/**
 * The `costs` rule (docs/decisions.md §8): imported operation types that mean a fee, interest or IOF. It lives
 * here, not beside billing's balance, because only the ledger's rows carry `operation_type`; SQL sums it.
 */
const COST_PATTERN = '(tarifa|juros|iof|encargo|multa|anuidade|fee|interest)';

/**
 * Per-bill sums (as text) of the context's live entries, bill payments apart: purchases, credits, payments,
 * costs (operation type matching `COST_PATTERN`), count and recurring; one grouped query. Billing turns
 * them into a bill's figures (`billFigures` in billing's domain): no balance arithmetic here.
 */
export async function billTotalRows(em: EntityManager, ctx: CallerContext, billIds: string[]) {
  const statement = billTotalsStatement(ctx, billIds);
  return runSql<Record<string, string>>(em, statement.sql, statement.params);
}

/** The statement of `billTotalRows` (`?` placeholders, an array for `in (?)`); the bench runs it too. */
export function billTotalsStatement(ctx: CallerContext, billIds: string[]): { sql: string; params: unknown[] } {
  const scope = contextSql(ctx, 't');
  return {
    sql: `select t.bill_id,
       coalesce(sum(t.amount) filter (where not t.is_bill_payment and t.is_expense), 0)::text as purchases,
       coalesce(sum(t.amount) filter (where not t.is_bill_payment and not t.is_expense), 0)::text as credits,
       coalesce(sum(case when t.is_expense then t.amount else -t.amount end) filter (where t.is_bill_payment), 0)::text as payments,
       coalesce(sum(t.amount) filter (where not t.is_bill_payment and t.is_expense and t.operation_type ~* ?), 0)::text as costs,
       count(*) filter (where not t.is_bill_payment)::text as count,
       coalesce(sum(case when t.is_expense then t.amount else -t.amount end)
         filter (where not t.is_bill_payment and t.type = 'RECURRENT'), 0)::text as recurring
     from transactions t
     where t.bill_id in (?) and t.deleted_at is null and ${scope.sql}
     group by t.bill_id`,
    params: [COST_PATTERN, billIds, ...scope.params],
  };
}

/** A bill's row: its API record as JSON text (`VIEW_JSON`), the ids of its references, its extras. */
export interface BillRow {
  view: string;
  id: string;
  account_id: string | null;
  category_id: string | null;
  subcategory_id: string | null;
  installment_number: number | null;
  /** ISO text, when the row was billed. */
  billed_at: string | null;
  /** The purchase total of its installment series, else its amount: a JSON number's text (bigint). */
  total: string;
}

/** Which rows a bill holds: the card's live entries of the bills, bill payments apart, in the context. */
function billRowsWhere(ctx: CallerContext, cardId: string, billIds: string[]) {
  const scope = contextSql(ctx, 't');
  return {
    sql: `t.credit_card_id = ? and t.bill_id in (?) and not t.is_bill_payment and t.deleted_at is null and ${scope.sql}`,
    params: [cardId, billIds, ...scope.params],
  };
}

/** The distinct accounts, categories and subcategories the rows of some bills name (one row of three arrays). */
export async function billReferenceIds(em: EntityManager, ctx: CallerContext, cardId: string, billIds: string[]) {
  const where = billRowsWhere(ctx, cardId, billIds);
  const [ids] = await runSql<{ account_ids: string[]; category_ids: string[]; subcategory_ids: string[] }>(
    em,
    `select coalesce(array_agg(distinct t.account_id::text) filter (where t.account_id is not null), '{}') as account_ids,
       coalesce(array_agg(distinct t.category_id::text) filter (where t.category_id is not null), '{}') as category_ids,
       coalesce(array_agg(distinct t.subcategory_id::text) filter (where t.subcategory_id is not null), '{}') as subcategory_ids
     from transactions t where ${where.sql}`,
    where.params,
  );
  return ids;
}

/** The tag links of the rows of some bills. */
export async function billTagLinks(em: EntityManager, ctx: CallerContext, cardId: string, billIds: string[]) {
  const where = billRowsWhere(ctx, cardId, billIds);
  return runSql<{ transaction_id: string; tag_id: string }>(
    em,
    `select l.transaction_id, l.tag_id from transaction_tags l join transactions t on t.id = l.transaction_id
     where ${where.sql}`,
    where.params,
  );
}

/**
 * The rows of some bills by date, each as its record's JSON with what the bill adds to it, handed to `onRow` as
 * they arrive: PostgreSQL writes the thousands of records, Node never parses them, and none waits in memory for
 * the last one.
 */
export async function forEachBillRow(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  billIds: string[],
  onRow: (row: BillRow) => void,
) {
  const statement = billRowsStatement(ctx, cardId, billIds);
  await forEachRow<BillRow>(em, statement.sql, statement.params, onRow);
}

/**
 * The statement of `forEachBillRow` (`?` placeholders, an array for `in (?)`). The bench runs it with
 * `select: 'columns'` (the viewed columns and the series total, as a plain read of the bill would) as its floor.
 */
export function billRowsStatement(
  ctx: CallerContext,
  cardId: string,
  billIds: string[],
  select: 'json' | 'columns' = 'json',
) {
  const where = billRowsWhere(ctx, cardId, billIds);
  const seriesTotal = `case when t.type = 'PARCELLED' and t.connected_transaction_id is not null then
         (select sum(s.amount) from transactions s
          where s.connected_transaction_id = t.connected_transaction_id and s.deleted_at is null)
       end`;
  const columns =
    select === 'json'
      ? `${VIEW_JSON.select} as view, t.id, t.account_id, t.category_id, t.subcategory_id, t.installment_number,
         ${isoTimestampSql('t.billed_at')} as billed_at, coalesce(${seriesTotal}, t.amount)::text as total`
      : `${VIEW_SELECT_COLUMNS}, (${seriesTotal})::text as series_total`;
  return {
    sql: `select ${columns}
     from transactions t ${select === 'json' ? VIEW_JSON.from : ''}
     where ${where.sql}
     order by t.date, t.id`,
    params: where.params,
  };
}
