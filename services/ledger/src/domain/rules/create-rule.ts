import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CreateCategorizationRuleBody } from '@finance/shared/contracts/ledger/categorization-rules';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  findRuleByFingerprint,
  insertRule,
  lockFingerprint,
  type RuleValues,
  updateRule,
} from '../../data-access/rule-repository.ts';
import { findOneLive } from '../../data-access/transaction-repository.ts';
import { assertReferences } from '../references/assert-references.ts';
import { categorizeSource } from './categorize-source.ts';
import {
  type QueuedRecategorization,
  type RecategorizationQueue,
  recordRecategorization,
} from './queue-recategorization.ts';
import { answerAfterRecategorization, keepRuleAnswer } from './rule-answer.ts';
import { chooseMatchFields, criteriaOf, fingerprintOf, matchValues } from './rule-criteria.ts';
import { ruleSharesOf } from './rule-splits.ts';

export const DISABLED_CANNOT_APPLY = 'uma regra desativada não pode ser aplicada às transações existentes';

/**
 * POST /v1/categorization-rules: a rule from a transaction with merchant data, or the update of the live rule
 * with the same fingerprint (answered 200, not 201). Categorizes its source, and its history when asked.
 */
export async function createRule(
  em: EntityManager,
  ctx: CallerContext,
  input: CreateCategorizationRuleBody,
  queue: RecategorizationQueue,
) {
  const committed = await em.transactional(async (tx) => {
    const source = await findOneLive(tx, ctx, input.source_transaction_id, true);
    if (!source) throw notFound('Transação não encontrada (source_transaction_id)');
    const criteria = criteriaOf(source);
    if (criteria.length === 0) {
      throw invalidField('source_transaction_id', 'a transação não tem dados do estabelecimento (nome ou CNPJ)');
    }
    await assertReferences(tx, ctx, { categoryId: input.category_id, subcategoryId: input.subcategory_id });
    const matchFields = chooseMatchFields(criteria, input.match_fields);
    const enabled = input.enabled ?? true;
    if (input.apply_to_existing && !enabled) throw invalidField('apply_to_existing', DISABLED_CANNOT_APPLY);

    const splits = await ruleSharesOf(tx, ctx, input.splits ?? null, null);
    const fingerprint = fingerprintOf(ctx, source.is_expense, criteria, matchFields);
    await lockFingerprint(tx, ctx, fingerprint);
    const existing = await findRuleByFingerprint(tx, ctx, fingerprint);
    const values: RuleValues = {
      category_id: input.category_id,
      subcategory_id: input.subcategory_id ?? null,
      enabled,
      is_expense: source.is_expense,
      match_fields: matchFields,
      ...matchValues(criteria, matchFields),
      source_id: (source.account_id ?? source.credit_card_id) as string,
      source_kind: source.account_id ? 'ACCOUNT' : 'CREDIT_CARD',
      source_transaction_id: source.id,
      available_criteria: criteria,
      fingerprint,
      splits,
    };
    const rule = existing ? await updateRule(tx, existing.id, values) : await insertRule(tx, ctx, values);
    const sourceUpdated = await categorizeSource(tx, ctx, rule);
    const queued: QueuedRecategorization | null = input.apply_to_existing
      ? await recordRecategorization(tx, ctx, rule, queue.lanes)
      : null;
    const status = existing ? 200 : 201;
    keepRuleAnswer(status, rule, sourceUpdated, queued);
    return { status, rule, sourceUpdated, queued };
  });
  return answerAfterRecategorization(em, ctx, committed, queue);
}
