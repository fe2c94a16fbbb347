import { MAX_CHANGED_PER_EVENT } from '@finance/shared/queue/catalogue';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  addToRun,
  advanceLane,
  applyRecategorizationBatch,
  type BatchResult,
  categorizeRows,
  findRun,
  finishRunIfDone,
  type LaneRow,
  lanesOf,
  lockLane,
  type RunRow,
  splitBatchRows,
} from '../../data-access/recategorization-runs.ts';
import { contextOfRow } from '../../data-access/rule-match-sql.ts';
import type { RuleShare } from '../../data-access/rule-repository.ts';
import { loadByIds } from '../../data-access/transaction-repository.ts';
import { updateBackgroundJob } from '../jobs/background-jobs.ts';
import { recordTransactionChanges, transactionChangesEvent } from '../transactions/record-changes.ts';
import { RECATEGORIZATION_BATCH } from './recategorization-lanes.ts';
import { splitByRules } from './rule-splits.ts';

export interface RecategorizationResult {
  updated_count: number;
}

export interface RecategorizationOptions {
  /** Rows a batch scans (and at most changes) in one transaction. */
  batchSize?: number;
  onProgress?: (percent: number) => Promise<void> | void;
}

const progressOf = (run: RunRow) =>
  run.finished_at ? 100 : Math.min(99, run.total === 0 ? 0 : Math.floor((run.scanned / run.total) * 100));

/** The run of a job is gone: retrying cannot help (the worker fails the job at once). */
export class RunNotFound extends Error {
  constructor(jobId: string) {
    super(`recategorization run ${jobId} not found`);
  }
}

/**
 * One batch of one lane in one transaction: the UPDATE, its `transaction.changed` events, the lane's cursor,
 * the run's counts and the job's progress commit together, so a worker killed at any point resumes exactly
 * where the last commit left it and the final count is exact. The batch that finishes the last lane finishes
 * the run: its `rule.applied` and the job's result. Answers the job's progress, or null once the lane is done.
 */
async function step(em: EntityManager, run: RunRow, laneNumber: number, size: number): Promise<number | null> {
  return em.transactional(async (tx) => {
    const lane = await lockLane(tx, run.job_id, laneNumber);
    if (!lane || lane.finished_at) return null;
    const batch = run.splits
      ? await applySplitBatch(tx, run, run.splits, lane, size)
      : await applyRecategorizationBatch(
          tx,
          run,
          lane,
          size,
          // the batch's `transaction.changed` events are written by its UPDATE statement (items built in SQL)
          Array.from({ length: Math.ceil(size / MAX_CHANGED_PER_EVENT) }, () =>
            transactionChangesEvent(contextOfRow(run), 'updated', []),
          ),
        );
    // a short batch, or one that reached the lane's last id, leaves nothing after it in the lane
    const finished = batch.scanned < size || (lane.upper_id !== null && batch.last_id === lane.upper_id);
    await advanceLane(tx, lane, { lastId: batch.last_id, finished });
    const counted = await addToRun(tx, run.job_id, batch);
    if (finished && (await finishRunIfDone(tx, run.job_id))) {
      recordEvent(
        tx,
        'rule.applied',
        { user_id: run.user_id, profile_id: run.profile_id },
        { rule_id: run.rule_id, job_id: run.job_id, updated: counted.changed },
      );
      const result: RecategorizationResult = { updated_count: counted.changed };
      await updateBackgroundJob(tx, run.job_id, { state: 'completed', progress: 100, result });
      return 100;
    }
    const progress = progressOf(counted);
    await updateBackgroundJob(tx, run.job_id, { state: 'active', progress });
    return progress;
  });
}

/**
 * A splitting rule's batch: the rows come to Node, each takes the rule's category and its parts (`splitByRules`);
 * those that changed go out in events of at most `MAX_CHANGED_PER_EVENT`.
 */
async function applySplitBatch(
  tx: EntityManager,
  run: RunRow,
  shares: RuleShare[],
  lane: LaneRow,
  size: number,
): Promise<BatchResult> {
  const rows = await splitBatchRows(tx, run, lane, size);
  const recategorized = rows
    .filter((row) => row.category_id !== run.category_id || row.subcategory_id !== run.subcategory_id)
    .map((row) => row.id);
  await categorizeRows(tx, recategorized, run.category_id, run.subcategory_id);
  const split = await splitByRules(
    tx,
    rows.map((row) => ({ id: row.id, amount: Number(row.amount), current: row.splits, shares })),
  );
  const changed = [...new Set([...recategorized, ...split.keys()])];
  const ctx = contextOfRow(run);
  const loaded = await loadByIds(tx, changed);
  for (let start = 0; start < loaded.length; start += MAX_CHANGED_PER_EVENT) {
    recordTransactionChanges(tx, ctx, 'updated', loaded.slice(start, start + MAX_CHANGED_PER_EVENT));
  }
  return { scanned: rows.length, last_id: rows.at(-1)?.id ?? null, changed: changed.length };
}

/** Walks one lane batch by batch from its cursor to its end. */
async function walk(em: EntityManager, run: RunRow, lane: number, options: Required<RecategorizationOptions>) {
  for (;;) {
    const progress = await step(em.fork(), run, lane, options.batchSize);
    if (progress === null) return;
    await options.onProgress(progress);
  }
}

/**
 * Applies a rule to the context's history as the run of `jobId` describes it: its lanes side by side (one
 * connection each), each batch by batch from its cursor. Safe to run again, or twice at once: a finished run
 * answers its result, an interrupted one resumes, and the lanes' locks keep two runners off the same batch.
 */
export async function recategorizeHistory(
  em: EntityManager,
  jobId: string,
  options: RecategorizationOptions = {},
): Promise<RecategorizationResult> {
  const settings: Required<RecategorizationOptions> = {
    batchSize: RECATEGORIZATION_BATCH,
    onProgress: () => undefined,
    ...options,
  };
  const run = await findRun(em.fork(), jobId);
  if (!run) throw new RunNotFound(jobId);
  const lanes = await lanesOf(em.fork(), jobId);
  // every lane stops before the job answers, even when one fails: a retry never races a lane still walking here
  const walks = await Promise.allSettled(
    lanes.filter((lane) => !lane.finished_at).map((lane) => walk(em, run, lane.lane, settings)),
  );
  const failed = walks.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const finished = await findRun(em.fork(), jobId);
  if (!finished) throw new RunNotFound(jobId);
  return { updated_count: finished.changed };
}
