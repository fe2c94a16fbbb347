import type { CallerContext } from '@finance/shared/context/signed-context';
import type { MatchField, UpdateCategorizationRuleBody } from '@finance/shared/contracts/ledger/categorization-rules';
import { conflict, invalidField } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findRuleByFingerprint, lockFingerprint, updateRule } from '../../data-access/rule-repository.ts';
import { assertReferences } from '../references/assert-references.ts';
import { categorizeSource } from './categorize-source.ts';
import { DISABLED_CANNOT_APPLY } from './create-rule.ts';
import { findRuleOr404 } from './manage-rules.ts';
import {
  type QueuedRecategorization,
  type RecategorizationQueue,
  recordRecategorization,
} from './queue-recategorization.ts';
import { answerAfterRecategorization, keepRuleAnswer } from './rule-answer.ts';
import { chooseMatchFields, fingerprintOf, matchValues } from './rule-criteria.ts';
import { ruleSharesOf } from './rule-splits.ts';

/**
 * PATCH /v1/categorization-rules/{id}: only the fields sent change; then the source and, when asked, history.
 */
export async function updateCategorizationRule(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  input: UpdateCategorizationRuleBody,
  queue: RecategorizationQueue,
) {
  const committed = await em.transactional(async (tx) => {
    const current = await findRuleOr404(tx, ctx, id, true);
    const categoryChanged = input.category_id !== undefined && input.category_id !== current.category_id;
    const categoryId = input.category_id ?? current.category_id;
    // a subcategory belongs to one category: a new category without one clears the old
    const subcategoryId =
      input.subcategory_id !== undefined ? input.subcategory_id : categoryChanged ? null : current.subcategory_id;
    await assertReferences(tx, ctx, {
      categoryId: input.category_id ?? (input.subcategory_id ? current.category_id : undefined),
      subcategoryId: input.subcategory_id,
    });
    const matchFields: MatchField[] = input.match_fields
      ? chooseMatchFields(current.available_criteria, input.match_fields)
      : (current.match_fields as MatchField[]);
    const enabled = input.enabled ?? current.enabled;
    if (input.apply_to_existing && !enabled) throw invalidField('apply_to_existing', DISABLED_CANNOT_APPLY);

    const splits = await ruleSharesOf(tx, ctx, input.splits, current.splits);
    const fingerprint = fingerprintOf(ctx, current.is_expense, current.available_criteria, matchFields);
    if (fingerprint !== current.fingerprint) {
      await lockFingerprint(tx, ctx, fingerprint);
      if (await findRuleByFingerprint(tx, ctx, fingerprint)) {
        throw conflict('Já existe uma regra de categorização com estes critérios');
      }
    }
    const rule = await updateRule(tx, current.id, {
      ...current,
      category_id: categoryId,
      subcategory_id: subcategoryId,
      enabled,
      match_fields: matchFields,
      ...matchValues(current.available_criteria, matchFields),
      fingerprint,
      splits,
    });
    const sourceUpdated = await categorizeSource(tx, ctx, rule);
    const queued: QueuedRecategorization | null = input.apply_to_existing
      ? await recordRecategorization(tx, ctx, rule, queue.lanes)
      : null;
    keepRuleAnswer(200, rule, sourceUpdated, queued);
    return { status: 200, rule, sourceUpdated, queued };
  });
  return (await answerAfterRecategorization(em, ctx, committed, queue)).body;
}
