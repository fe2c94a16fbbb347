import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Goal } from '../../data-access/entities/goal.ts';
import { goalParts } from '../../data-access/goal-repository.ts';
import { goalView } from './goal-view.ts';

/** Full views of many goals: values and reminders in two queries, categories in one ledger call. */
export async function goalViews(em: EntityManager, ledger: LedgerInsightsClient, ctx: CallerContext, goals: Goal[]) {
  const categoryIds = [...new Set(goals.map((goal) => goal.categoryId).filter((id): id is string => !!id))];
  const [parts, refs] = await Promise.all([
    goalParts(
      em,
      goals.map((goal) => goal.id),
    ),
    ledger.categoryRefs(ctx, categoryIds),
  ]);
  const categories = new Map(refs.categories.map((category) => [category.id, category]));
  return goals.map((goal) =>
    goalView(goal, {
      category: (goal.categoryId && categories.get(goal.categoryId)) || null,
      values: parts.values.get(goal.id) ?? [],
      reminder: parts.reminders.get(goal.id) ?? null,
    }),
  );
}
