import { startOfMonth } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { CreateSpendingLimitBody, SpendingLimitFields } from '@finance/shared/contracts/insights/spending-limits';
import { ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, idPage } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type SpendingLimit, SpendingLimitSchema } from '../../data-access/entities/spending-limit.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { findLimit, listLimitsPage } from '../../data-access/spending-limit-repository.ts';
import { assertCategory } from '../category-check.ts';
import { contextToday } from '../context-today.ts';
import type { LimitWindow } from '../limit-window.ts';
import { limitView } from './limit-view.ts';
import { currentWindows, limitViews } from './limit-views.ts';
import { limitAlerts } from './spending-alerts.ts';

const NOT_FOUND = 'Limite de gastos não encontrado';

async function limitOr404(em: EntityManager, ctx: CallerContext, id: string) {
  const limit = await findLimit(em, ctx, id);
  if (!limit) throw notFound(NOT_FOUND);
  return limit;
}

async function viewOne(
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  limit: Parameters<typeof limitViews>[2][0],
  today?: string,
) {
  return (await limitViews(ledger, ctx, [limit], today))[0];
}

/**
 * Inside the write's transaction: the limit's view, from what its window spent (asked of the ledger before the
 * transaction opened), and the warnings it raises now: a limit created or changed below what is already spent
 * warns now, not at the next purchase. The answer commits with them (keepAnswer).
 */
async function viewAndAlert(tx: EntityManager, limit: SpendingLimit, current: { window: LimitWindow; spent: number }) {
  await tx.flush();
  const view = limitView(limit, current.window, current.spent);
  const { from, to, spent } = view.current_window;
  await insertNotifications(tx, limitAlerts(limit, { from, to }, spent));
  return keepAnswer(view);
}

/** docs/decisions.md §10 defaults: title = category name, MONTHLY, first day of the current month, 80 %. */
export async function createSpendingLimit(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  input: CreateSpendingLimitBody,
) {
  const category = await assertCategory(ledger, ctx, input.category_id, input.subcategory_id ?? null);
  const today = await contextToday(ledger, ctx);
  const fields = {
    title: input.title ?? category.name,
    amount: input.amount,
    categoryId: input.category_id,
    subcategoryId: input.subcategory_id ?? null,
    frequency: input.frequency ?? 'MONTHLY',
    startDate: input.start_date ?? startOfMonth(today),
    notificationPercentage: input.notification_percentage ?? 80,
  };
  const [current] = await currentWindows(ledger, ctx, [fields], today);
  return em.transactional(async (tx) =>
    viewAndAlert(tx, tx.create(SpendingLimitSchema, { ...ownerOf(ctx), ...fields }), current),
  );
}

export async function listSpendingLimits(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  page: PageQuery,
) {
  const { items, next_cursor } = idPage(await listLimitsPage(em, ctx, page.limit, afterIdOf(page.cursor)), page.limit);
  return { data: await limitViews(ledger, ctx, items), next_cursor };
}

export async function getSpendingLimit(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  id: string,
) {
  const limit = await limitOr404(em, ctx, id);
  return viewOne(ledger, ctx, limit);
}

/** Only fields sent change; a changed category or subcategory is checked like on creation. */
export async function updateSpendingLimit(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  id: string,
  input: SpendingLimitFields,
) {
  const existing = await limitOr404(em, ctx, id);
  const categoryId = input.category_id ?? existing.categoryId;
  const subcategoryId =
    input.subcategory_id !== undefined
      ? input.subcategory_id
      : input.category_id && input.category_id !== existing.categoryId
        ? null
        : (existing.subcategoryId ?? null);
  if (input.category_id !== undefined || input.subcategory_id !== undefined) {
    await assertCategory(ledger, ctx, categoryId, subcategoryId);
  }
  // what the changed limit's window spent, asked of the ledger before the transaction
  const [current] = await currentWindows(ledger, ctx, [
    {
      categoryId,
      subcategoryId,
      startDate: input.start_date ?? existing.startDate,
      frequency: input.frequency ?? existing.frequency,
    },
  ]);
  return em.transactional(async (tx) => {
    const row = await limitOr404(tx, ctx, id);
    row.categoryId = categoryId;
    row.subcategoryId = subcategoryId;
    if (input.amount !== undefined) row.amount = input.amount;
    if (input.frequency !== undefined) row.frequency = input.frequency;
    if (input.start_date !== undefined) row.startDate = input.start_date;
    if (input.title !== undefined) row.title = input.title;
    if (input.notification_percentage !== undefined) row.notificationPercentage = input.notification_percentage;
    return viewAndAlert(tx, row, current);
  });
}

export async function deleteSpendingLimit(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  id: string,
) {
  const limit = await limitOr404(em, ctx, id);
  const view = await viewOne(ledger, ctx, limit);
  return em.transactional(async (tx) => {
    await tx.nativeDelete(SpendingLimitSchema, { id: limit.id });
    return keepAnswer(view);
  });
}
