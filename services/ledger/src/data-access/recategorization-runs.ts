import type { CallerContext } from '@finance/shared/context/signed-context';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { aroundItems, changedColumns, changedItemSql } from './changed-rows-sql.ts';
import { contextOfRow, type MatchTarget, matchSql } from './rule-match-sql.ts';
import type { OutboxInsert } from './transaction-repository.ts';

/** One apply_to_existing job: what it applies (a snapshot of the rule), where it is and what it changed. */
export interface RunRow {
  job_id: string;
  rule_id: string;
  user_id: string;
  profile_id: string | null;
  is_expense: boolean;
  match_merchant_name: string | null;
  match_merchant_cnpj: string | null;
  category_id: string;
  subcategory_id: string | null;
  total: number;
  scanned: number;
  changed: number;
  cursor_id: string | null;
  finished_at: Date | null;
}

export type NewRun = Omit<RunRow, 'scanned' | 'changed' | 'cursor_id' | 'finished_at'>;

export async function insertRun(em: EntityManager, run: NewRun): Promise<void> {
  await runSql(
    em,
    `insert into recategorization_runs (job_id, rule_id, user_id, profile_id, is_expense, match_merchant_name,
       match_merchant_cnpj, category_id, subcategory_id, total) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      run.job_id,
      run.rule_id,
      run.user_id,
      run.profile_id,
      run.is_expense,
      run.match_merchant_name,
      run.match_merchant_cnpj,
      run.category_id,
      run.subcategory_id,
      run.total,
    ],
  );
}

/** The run under a row lock: two workers holding the same job never apply one batch twice. */
export async function lockRun(em: EntityManager, jobId: string): Promise<RunRow | null> {
  const rows = await runSql<RunRow>(em, 'select * from recategorization_runs where job_id = ? for update', [jobId]);
  return rows[0] ?? null;
}

/** Moves the cursor and the counts in the batch's own transaction, so a crash never loses or repeats one. */
export async function advanceRun(
  em: EntityManager,
  jobId: string,
  batch: { lastId: string | null; scanned: number; changed: number; finished: boolean },
): Promise<void> {
  await runSql(
    em,
    `update recategorization_runs set cursor_id = coalesce(?, cursor_id), scanned = scanned + ?, changed = changed + ?,
       finished_at = case when ? then now() else finished_at end, updated_at = now()
     where job_id = ?`,
    [batch.lastId, batch.scanned, batch.changed, batch.finished, jobId],
  );
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

export interface BatchResult {
  scanned: number;
  last_id: string | null;
  /** How many rows changed (the event lists them). */
  changed: number;
}

/**
 * The next batch after the cursor, in id order; only rows not already in the rule's category change. The same
 * statement writes `event` (an empty `data.transactions`) with the changed rows as its items, when any
 * changed: the rows never come to Node, and the items' JSON is spliced into the event's text.
 */
export async function applyRecategorizationBatch(
  em: EntityManager,
  run: RunRow,
  size: number,
  event: OutboxInsert,
): Promise<BatchResult> {
  const match = matchSql(contextOfRow(run), run);
  const differs = 't.category_id is distinct from ? or t.subcategory_id is distinct from ?';
  const payload = aroundItems(event.payload);
  const [result] = await runSql<BatchResult>(
    em,
    `with batch as (
       select t.id from transactions t where ${match.sql} and t.id > ? order by t.id limit ?
     ), changed as (
       update transactions t set category_id = ?, subcategory_id = ?, updated_at = now()
       from batch b where t.id = b.id and (${differs})
       returning ${changedColumns()}
     ), event as (
       insert into outbox_events (id, type, payload)
       select ?, ?, (?::text || json_agg(${changedItemSql('c')})::text || ?::text)::json
       from changed c having count(*) > 0
     )
     select (select count(*) from batch)::int as scanned,
       (select id from batch order by id desc limit 1) as last_id,
       (select count(*) from changed)::int as changed`,
    [
      ...match.params,
      run.cursor_id ?? FIRST_ID,
      size,
      run.category_id,
      run.subcategory_id,
      run.category_id,
      run.subcategory_id,
      event.id,
      event.type,
      payload.head,
      payload.tail,
    ],
  );
  return result;
}

/** How many live transactions of the context the rule matches, and how many of them are not in its category yet. */
export async function countRuleMatches(
  em: EntityManager,
  ctx: CallerContext,
  rule: MatchTarget & { category_id: string | null; subcategory_id: string | null },
): Promise<{ total: number; to_change: number }> {
  const match = matchSql(ctx, rule);
  const [counts] = await runSql<{ total: number; to_change: number }>(
    em,
    `select count(*)::int as total,
       count(*) filter (where t.category_id is distinct from ? or t.subcategory_id is distinct from ?)::int as to_change
     from transactions t where ${match.sql}`,
    [rule.category_id, rule.subcategory_id, ...match.params],
  );
  return counts;
}
