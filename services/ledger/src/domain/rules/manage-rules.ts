import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findRule, pageRules, type RuleRow, softDeleteRule } from '../../data-access/rule-repository.ts';
import { ruleView } from './rule-view.ts';

export async function findRuleOr404(em: EntityManager, ctx: CallerContext, id: string, lock = false): Promise<RuleRow> {
  const rule = await findRule(em, ctx, id, lock);
  if (!rule) throw notFound('Regra de categorização não encontrada');
  return rule;
}

export async function getCategorizationRule(em: EntityManager, ctx: CallerContext, id: string) {
  return ruleView(await findRuleOr404(em, ctx, id));
}

export async function listCategorizationRules(em: EntityManager, ctx: CallerContext, page: PageQuery) {
  return toPage(await pageRules(em, ctx, page.limit, afterIdOf(page.cursor)), page.limit, ruleView);
}

/** Logical delete: the rule stops categorizing; what it categorized keeps its category. */
export async function deleteCategorizationRule(em: EntityManager, ctx: CallerContext, id: string) {
  return em.transactional(async (tx) => {
    const rule = await findRuleOr404(tx, ctx, id, true);
    await softDeleteRule(tx, rule.id);
    return keepAnswer(ruleView(rule));
  });
}
