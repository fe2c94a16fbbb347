import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CategoryRef } from '@finance/shared/contracts/internal/ledger-for-insights';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Goal } from '../../data-access/entities/goal.ts';
import { goalParts } from '../../data-access/goal-repository.ts';
import { goalView } from './goal-view.ts';

/** The goals' categories as the ledger has them, by id, in one call (asked before any transaction opens). */
export async function goalCategories(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  categoryIds: Array<string | null>,
): Promise<Map<string, CategoryRef>> {
  const ids = [...new Set(categoryIds.filter((id): id is string => !!id))];
  const refs = await ledger.categoryRefs(ctx, ids);
  return new Map(refs.categories.map((category) => [category.id, category]));
}

type Parts = Awaited<ReturnType<typeof goalParts>>;

const viewsOf = (goals: Goal[], parts: Parts, categories: Map<string, CategoryRef>) =>
  goals.map((goal) =>
    goalView(goal, {
      category: (goal.categoryId && categories.get(goal.categoryId)) || null,
      values: parts.values.get(goal.id) ?? [],
      reminder: parts.reminders.get(goal.id) ?? null,
    }),
  );

const partsOf = (em: EntityManager, goals: Goal[]) =>
  goalParts(
    em,
    goals.map((goal) => goal.id),
  );

/** Full views of goals whose categories are known: values and reminders in two queries (in `em`'s transaction). */
export async function goalViewsOf(em: EntityManager, goals: Goal[], categories: Map<string, CategoryRef>) {
  return viewsOf(goals, await partsOf(em, goals), categories);
}

/** Full views of many goals: values and reminders in two queries, categories in one ledger call, side by side. */
export async function goalViews(em: EntityManager, ledger: LedgerInsightsClient, ctx: CallerContext, goals: Goal[]) {
  const [parts, categories] = await Promise.all([
    partsOf(em, goals),
    goalCategories(
      ledger,
      ctx,
      goals.map((goal) => goal.categoryId ?? null),
    ),
  ]);
  return viewsOf(goals, parts, categories);
}
