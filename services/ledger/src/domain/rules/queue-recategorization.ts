import type { CallerContext } from '@finance/shared/context/signed-context';
import { QUEUES, type RecategorizationJob } from '@finance/shared/queue/catalogue';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countRuleMatches, insertLanes, insertRun } from '../../data-access/recategorization-runs.ts';
import type { RuleRow } from '../../data-access/rule-repository.ts';
import { createBackgroundJob, waitForBackgroundJob } from '../jobs/background-jobs.ts';
import { laneBounds, laneCount } from './recategorization-lanes.ts';
import type { RecategorizationResult } from './recategorize-history.ts';

export const RECATEGORIZATION_KIND = 'RECATEGORIZATION';
export const RECATEGORIZE_JOB = 'recategorize';
const WAIT_MS = 5_000;

/** What the rule commands need to queue a recategorization: the service's lanes and the outbox relay's wake-up. */
export interface RecategorizationQueue {
  /** Id ranges a job's batches walk side by side, at most (`RECATEGORIZATION_LANES`). */
  lanes: number;
  /** Wakes the outbox relay: the job leaves now, not at its next poll. */
  relaySoon: () => void;
}

export interface QueuedRecategorization {
  jobId: string;
  /** Matching transactions not yet in the rule's category when the job was recorded. */
  toChange: number;
}

/**
 * Records an apply_to_existing job inside the command's transaction: the background job, a run holding a
 * snapshot of the rule (so later edits of the rule never change a job already accepted) and its counts, its
 * lanes (the matches split by id, from the same scan as the counts), and the queued job itself through the
 * outbox (its BullMQ id is the background job id).
 */
export async function recordRecategorization(
  tx: EntityManager,
  ctx: CallerContext,
  rule: RuleRow,
  maxLanes: number,
): Promise<QueuedRecategorization> {
  const counts = await countRuleMatches(tx, ctx, rule, maxLanes);
  const jobId = await createBackgroundJob(tx, ctx, RECATEGORIZATION_KIND);
  await insertRun(tx, {
    job_id: jobId,
    rule_id: rule.id,
    user_id: ctx.userId,
    profile_id: ctx.profileId,
    is_expense: rule.is_expense,
    match_merchant_name: rule.match_merchant_name,
    match_merchant_cnpj: rule.match_merchant_cnpj,
    category_id: rule.category_id,
    subcategory_id: rule.subcategory_id,
    splits: rule.splits,
    total: counts.total,
  });
  await insertLanes(tx, jobId, laneBounds(counts.bounds, maxLanes, laneCount(counts.total, maxLanes)));
  const job: RecategorizationJob = { job_id: jobId };
  recordJob(tx, QUEUES.recategorization, RECATEGORIZE_JOB, { ...job }, jobId);
  return { jobId, toChange: counts.to_change };
}

/**
 * After the commit: wakes the outbox relay, then waits up to 5 s; the exact count when the job finished, else
 * the count still to change.
 */
export async function awaitRecategorization(
  em: EntityManager,
  ctx: CallerContext,
  queued: QueuedRecategorization,
  queue: RecategorizationQueue,
): Promise<number> {
  queue.relaySoon();
  const job = await waitForBackgroundJob(em.fork(), ctx, queued.jobId, WAIT_MS);
  if (job.state === 'completed') return (job.result as RecategorizationResult).updated_count;
  return queued.toChange;
}
