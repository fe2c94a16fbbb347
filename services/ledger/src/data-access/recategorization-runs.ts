import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { aroundItems, changedColumns, changedItemSql } from './changed-rows-sql.ts';
import { contextOfRow, type MatchTarget, matchSql } from './rule-match-sql.ts';
import type { RuleShare } from './rule-repository.ts';
import { splitsJsonSql } from './split-json.ts';
import type { OutboxInsert } from './transaction-repository.ts';

/** One apply_to_existing job: what it applies (a snapshot of the rule) and what it changed; its lanes hold where it is. */
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
  /** The rule's split when the job was accepted, or null: it only categorizes. */
  splits: RuleShare[] | null;
  total: number;
  scanned: number;
  changed: number;
  finished_at: Date | null;
}

export type NewRun = Omit<RunRow, 'scanned' | 'changed' | 'finished_at'>;

/** A run's share of the matches: ids after `cursor_id` up to `upper_id` (inclusive; null: no bound). */
export interface LaneRow {
  job_id: string;
  lane: number;
  cursor_id: string | null;
  upper_id: string | null;
  finished_at: Date | null;
}

export async function insertRun(em: EntityManager, run: NewRun): Promise<void> {
  await runSql(
    em,
    `insert into recategorization_runs (job_id, rule_id, user_id, profile_id, is_expense, match_merchant_name,
       match_merchant_cnpj, category_id, subcategory_id, splits, total) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
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
      run.splits === null ? null : JSON.stringify(run.splits),
      run.total,
    ],
  );
}

export async function findRun(em: EntityManager, jobId: string): Promise<RunRow | null> {
  const rows = await runSql<RunRow>(em, 'select * from recategorization_runs where job_id = ?', [jobId]);
  return rows[0] ?? null;
}

export async function lanesOf(em: EntityManager, jobId: string): Promise<LaneRow[]> {
  return runSql<LaneRow>(em, 'select * from recategorization_lanes where job_id = ? order by lane', [jobId]);
}

/** Lane k covers the ids after bound k - 1 (the first: all) up to bound k (the last: no bound). */
export async function insertLanes(em: EntityManager, jobId: string, bounds: readonly string[]): Promise<void> {
  const literal = (ids: ReadonlyArray<string | null>) => `{${ids.map((id) => id ?? 'NULL').join(',')}}`;
  await runSql(
    em,
    `insert into recategorization_lanes (job_id, lane, cursor_id, upper_id)
     select ?, l.n - 1, l.cursor_id, l.upper_id from unnest(?::uuid[], ?::uuid[]) with ordinality as l(cursor_id, upper_id, n)`,
    [jobId, literal([null, ...bounds]), literal([...bounds, null])],
  );
}

/** The lane under a row lock: two workers holding the same job never apply one of its batches twice. */
export async function lockLane(em: EntityManager, jobId: string, lane: number): Promise<LaneRow | null> {
  const rows = await runSql<LaneRow>(
    em,
    'select * from recategorization_lanes where job_id = ? and lane = ? for update',
    [jobId, lane],
  );
  return rows[0] ?? null;
}

/** Moves the lane's cursor in the batch's own transaction, so a crash never loses or repeats one. */
export async function advanceLane(
  em: EntityManager,
  lane: LaneRow,
  batch: { lastId: string | null; finished: boolean },
): Promise<void> {
  await runSql(
    em,
    `update recategorization_lanes set cursor_id = coalesce(?, cursor_id),
       finished_at = case when ? then now() else finished_at end
     where job_id = ? and lane = ?`,
    [batch.lastId, batch.finished, lane.job_id, lane.lane],
  );
}

/** Adds a batch's counts to the run (locking it until the batch commits) and answers the run as updated. */
export async function addToRun(
  em: EntityManager,
  jobId: string,
  batch: { scanned: number; changed: number },
): Promise<RunRow> {
  const [run] = await runSql<RunRow>(
    em,
    `update recategorization_runs set scanned = scanned + ?, changed = changed + ?, updated_at = now()
     where job_id = ? returning *`,
    [batch.scanned, batch.changed, jobId],
  );
  return run;
}

/**
 * Marks the run finished when none of its lanes is left; answers whether this call did. A statement of its own,
 * after `addToRun` took the run's lock: its snapshot sees the lanes that other batches finished and committed.
 */
export async function finishRunIfDone(em: EntityManager, jobId: string): Promise<boolean> {
  const rows = await runSql(
    em,
    `update recategorization_runs r set finished_at = now() where r.job_id = ? and r.finished_at is null
       and not exists (select 1 from recategorization_lanes l where l.job_id = r.job_id and l.finished_at is null)
     returning r.job_id`,
    [jobId],
  );
  return rows.length > 0;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

export interface BatchResult {
  scanned: number;
  last_id: string | null;
  /** How many rows changed (the event lists them). */
  changed: number;
}

/**
 * The lane's next batch after its cursor, in id order; only rows not already in the rule's category change. The same
 * statement writes the changed rows as the items of `events` (empty `transaction.changed` events, in order; as many
 * rows each as `size` spread over them, so the events stay small), and only the events that got rows: the rows
 * never come to Node, and the items' JSON is spliced into each event's text.
 */
export async function applyRecategorizationBatch(
  em: EntityManager,
  run: RunRow,
  lane: LaneRow,
  size: number,
  events: OutboxInsert[],
): Promise<BatchResult> {
  const match = matchSql(contextOfRow(run), run);
  const upper = lane.upper_id === null ? '' : ' and t.id <= ?';
  const differs = 't.category_id is distinct from ? or t.subcategory_id is distinct from ?';
  const parts = events.map((event, index) => ({ part: index + 1, id: event.id, ...aroundItems(event.payload) }));
  const [result] = await runSql<BatchResult>(
    em,
    `with batch as (
       select t.id from transactions t where ${match.sql} and t.id > ?${upper} order by t.id limit ?
     ), changed as (
       update transactions t set category_id = ?, subcategory_id = ?, updated_at = now()
       from batch b where t.id = b.id and (${differs})
       returning ${changedColumns()}
     ), items as (
       select (row_number() over () - 1) / ? + 1 as part, ${changedItemSql('c')} as item from changed c
     ), event as (
       insert into outbox_events (id, type, payload)
       select e.id, ?, (e.head || json_agg(i.item)::text || e.tail)::json
       from items i join json_to_recordset(?::json) as e(part int, id uuid, head text, tail text) on e.part = i.part
       group by e.id, e.head, e.tail
     )
     select (select count(*) from batch)::int as scanned,
       (select id from batch order by id desc limit 1) as last_id,
       (select count(*) from changed)::int as changed`,
    [
      ...match.params,
      lane.cursor_id ?? FIRST_ID,
      ...(lane.upper_id === null ? [] : [lane.upper_id]),
      size,
      run.category_id,
      run.subcategory_id,
      run.category_id,
      run.subcategory_id,
      Math.ceil(size / events.length),
      events[0].type,
      JSON.stringify(parts),
    ],
  );
  return result;
}

/**
 * How many live transactions of the context the rule matches, how many of them are not in its category yet,
 * and the ids that split them into `lanes` ranges of about the same count (`lanes - 1` ids, in order; ids are
 * uuidv7, so a fixed split of the id space would not be even). One scan: the merchant index walks them in id order.
 */
export async function countRuleMatches(
  em: EntityManager,
  ctx: CallerContext,
  rule: MatchTarget & { category_id: string | null; subcategory_id: string | null },
  lanes: number,
): Promise<{ total: number; to_change: number; bounds: string[] }> {
  const match = matchSql(ctx, rule);
  const fractions = Array.from({ length: lanes - 1 }, (_, k) => (k + 1) / lanes);
  // the quantiles sort the matches' ids: only when there is more than one lane to split them into
  const bounds = lanes > 1 ? 'percentile_disc(?::float8[]) within group (order by t.id)' : 'null::uuid[]';
  const [counts] = await runSql<{ total: number; to_change: number; bounds: string[] | null }>(
    em,
    `select count(*)::int as total,
       count(*) filter (where t.category_id is distinct from ? or t.subcategory_id is distinct from ?)::int as to_change,
       ${bounds} as bounds
     from transactions t where ${match.sql}`,
    [rule.category_id, rule.subcategory_id, ...(lanes > 1 ? [`{${fractions.join(',')}}`] : []), ...match.params],
  );
  return { total: counts.total, to_change: counts.to_change, bounds: [...new Set(counts.bounds ?? [])] };
}

/** A matching row of a splitting rule's batch, with what it holds now. */
export interface SplitBatchRow {
  id: string;
  amount: string;
  category_id: string | null;
  subcategory_id: string | null;
  splits: SplitPart[] | null;
}

/**
 * The lane's next batch after its cursor, in id order, read whole (a splitting rule works out each row's parts in
 * Node: the remainder-cent rule has one home) and locked until the batch commits.
 */
export async function splitBatchRows(em: EntityManager, run: RunRow, lane: LaneRow, size: number) {
  const match = matchSql(contextOfRow(run), run);
  const upper = lane.upper_id === null ? '' : ' and t.id <= ?';
  return runSql<SplitBatchRow>(
    em,
    `select t.id, t.amount::text as amount, t.category_id, t.subcategory_id, ${splitsJsonSql('t')} as splits
     from transactions t where ${match.sql} and t.id > ?${upper} order by t.id limit ? for update of t`,
    [...match.params, lane.cursor_id ?? FIRST_ID, ...(lane.upper_id === null ? [] : [lane.upper_id]), size],
  );
}

/** Puts these rows (ids the caller found in its context) in a category. */
export async function categorizeRows(
  em: EntityManager,
  ids: string[],
  categoryId: string,
  subcategoryId: string | null,
): Promise<void> {
  if (ids.length === 0) return;
  await runSql(em, 'update transactions set category_id = ?, subcategory_id = ?, updated_at = now() where id in (?)', [
    categoryId,
    subcategoryId,
    ids,
  ]);
}
