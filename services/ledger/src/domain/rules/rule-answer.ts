import type { CallerContext } from '@finance/shared/context/signed-context';
import { keepAnswer, keepRecoveryPoint } from '@finance/shared/http/kept-answer';
import { Reply } from '@finance/shared/http/service-routes';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RuleRow } from '../../data-access/rule-repository.ts';
import { findRuleOr404 } from './manage-rules.ts';
import {
  awaitRecategorization,
  type QueuedRecategorization,
  type RecategorizationQueue,
} from './queue-recategorization.ts';
import { ruleView } from './rule-view.ts';

/** What a rule command answers: the rule, whether its source changed, and its recategorization's count and job. */
export const ruleAnswer = (rule: RuleRow, sourceUpdated: boolean, jobId: string | null, count: number) => ({
  rule: ruleView(rule),
  source_transaction_updated: sourceUpdated,
  updated_existing_count: count,
  job_id: jobId,
});

/** Where a rule command's answer is rebuilt from when it waited for its recategorization and died. */
interface RulePoint {
  status: number;
  rule_id: string;
  source_transaction_updated: boolean;
  job: QueuedRecategorization;
}

/**
 * Inside the command's transaction: its answer, or, when it is to wait for a recategorization after the commit,
 * the point a retry rebuilds it from (`keepRecoveryPoint`).
 */
export function keepRuleAnswer(
  status: number,
  rule: RuleRow,
  sourceUpdated: boolean,
  queued: QueuedRecategorization | null,
) {
  if (!queued) return keepAnswer(new Reply(status, ruleAnswer(rule, sourceUpdated, null, 0)));
  const point: RulePoint = { status, rule_id: rule.id, source_transaction_updated: sourceUpdated, job: queued };
  keepRecoveryPoint(point);
}

/** After the commit: waits for the recategorization (up to 5 s) and answers with its count. */
export async function answerAfterRecategorization(
  em: EntityManager,
  ctx: CallerContext,
  answer: { status: number; rule: RuleRow; sourceUpdated: boolean; queued: QueuedRecategorization | null },
  queue: RecategorizationQueue,
) {
  const { queued } = answer;
  const count = queued ? await awaitRecategorization(em, ctx, queued, queue) : 0;
  return new Reply(answer.status, ruleAnswer(answer.rule, answer.sourceUpdated, queued?.jobId ?? null, count));
}

/** A retry's answer after the first attempt's was lost while it waited: the rule as it is, its job's count. */
export async function recoverRuleAnswer(
  em: EntityManager,
  ctx: CallerContext,
  point: unknown,
  queue: RecategorizationQueue,
) {
  const { status, rule_id, source_transaction_updated, job } = point as RulePoint;
  const rule = await findRuleOr404(em, ctx, rule_id);
  return answerAfterRecategorization(
    em,
    ctx,
    { status, rule, sourceUpdated: source_transaction_updated, queued: job },
    queue,
  );
}
