import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  advanceRun,
  applyRecategorizationBatch,
  lockRun,
  type RunRow,
} from '../../data-access/recategorization-runs.ts';
import { contextOfRow } from '../../data-access/rule-match-sql.ts';
import { updateBackgroundJob } from '../jobs/background-jobs.ts';
import { transactionChangesEvent } from '../transactions/record-changes.ts';

export const RECATEGORIZATION_BATCH = 5_000;

export interface RecategorizationResult {
  updated_count: number;
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
 * One batch in one transaction: the UPDATE, its `transaction.changed` event, the run's cursor and counts and
 * the job's progress commit together, so a worker killed at any point resumes exactly where the last
 * commit left it and the final count is exact. Answers the run as committed.
 */
async function step(em: EntityManager, jobId: string, size: number): Promise<RunRow> {
  return em.transactional(async (tx) => {
    const run = await lockRun(tx, jobId);
    if (!run) throw new RunNotFound(jobId);
    if (run.finished_at) return run;
    // the batch's `transaction.changed` is written by its UPDATE statement (items built in SQL)
    const event = transactionChangesEvent(contextOfRow(run), 'updated', []);
    const batch = await applyRecategorizationBatch(tx, run, size, event);
    const finished = batch.scanned < size;
    await advanceRun(tx, jobId, {
      lastId: batch.last_id,
      scanned: batch.scanned,
      changed: batch.changed,
      finished,
    });
    if (finished) {
      recordEvent(
        tx,
        'rule.applied',
        { user_id: run.user_id, profile_id: run.profile_id },
        {
          rule_id: run.rule_id,
          job_id: jobId,
          updated: run.changed + batch.changed,
        },
      );
    }
    const next: RunRow = {
      ...run,
      scanned: run.scanned + batch.scanned,
      changed: run.changed + batch.changed,
      cursor_id: batch.last_id ?? run.cursor_id,
      finished_at: finished ? new Date() : null,
    };
    const result: RecategorizationResult = { updated_count: next.changed };
    await updateBackgroundJob(
      tx,
      jobId,
      finished ? { state: 'completed', progress: 100, result } : { state: 'active', progress: progressOf(next) },
    );
    return next;
  });
}

/**
 * Applies a rule to the context's history as the run of `jobId` describes it, batch by batch from its
 * cursor. Safe to run again: a finished run answers its result, an interrupted one resumes.
 */
export async function recategorizeHistory(
  em: EntityManager,
  jobId: string,
  onProgress: (percent: number) => Promise<void> | void = () => undefined,
  batchSize = RECATEGORIZATION_BATCH,
): Promise<RecategorizationResult> {
  for (;;) {
    const run = await step(em.fork(), jobId, batchSize);
    await onProgress(progressOf(run));
    if (run.finished_at) return { updated_count: run.changed };
  }
}
