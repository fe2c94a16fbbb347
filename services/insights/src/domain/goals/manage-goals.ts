import { parseCalendarDate } from '@finance/shared/calendar';
import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { CreateGoalBody, GoalFields, ReminderFields } from '@finance/shared/contracts/insights/goals';
import type { CategoryRef } from '@finance/shared/contracts/internal/ledger-for-insights';
import { contextRef, ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, idPage } from '@finance/shared/db/pagination';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Goal, GoalReminderSchema, GoalSchema } from '../../data-access/entities/goal.ts';
import { findGoal, listGoalsPage, rescheduleReminder } from '../../data-access/goal-repository.ts';
import { forecastInputsChanged } from '../cash-flow/inputs-changed.ts';
import { assertCategory } from '../category-check.ts';
import { goalCategories, goalViews, goalViewsOf } from './goal-views.ts';

export const GOAL_NOT_FOUND = 'Meta não encontrada';

function deadlineOf(input: string): string {
  const date = parseCalendarDate(input);
  if (!date) throw invalidField('deadline', 'deadline deve ser uma data válida');
  return date;
}

function checkReminder(reminder: ReminderFields | null | undefined): void {
  if (reminder?.end_date && reminder.end_date < reminder.start_date) {
    throw invalidField('reminder.end_date', 'end_date não pode ser anterior a start_date');
  }
}

async function viewOne(em: EntityManager, ledger: LedgerInsightsClient, ctx: CallerContext, goal: Goal) {
  return (await goalViews(em, ledger, ctx, [goal]))[0];
}

/** Replaces the goal's reminder: null removes it; an object keeps `last_notification` of the one it replaces. */
async function saveReminder(tx: EntityManager, goal: Goal, ctx: CallerContext, reminder: ReminderFields | null) {
  const existing = await tx.findOne(GoalReminderSchema, { goalId: goal.id });
  if (!reminder) {
    if (existing) tx.remove(existing);
    return;
  }
  const fields = {
    amount: reminder.amount,
    frequency: reminder.frequency,
    startDate: reminder.start_date,
    endDate: reminder.end_date ?? null,
  };
  if (existing) {
    Object.assign(existing, fields);
    await rescheduleReminder(tx, existing.id);
  } else tx.create(GoalReminderSchema, { goalId: goal.id, userId: ctx.userId, lastNotification: null, ...fields });
}

export async function createGoal(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  input: CreateGoalBody,
) {
  const deadline = deadlineOf(input.deadline);
  checkReminder(input.reminder);
  // the category is asked of the ledger before the transaction: the answer is made inside it (keepAnswer)
  const categories = input.category_id
    ? categoriesBy(await assertCategory(ledger, ctx, input.category_id))
    : new Map<string, CategoryRef>();
  return em.transactional(async (tx) => {
    const created = tx.create(GoalSchema, {
      ...ownerOf(ctx),
      title: input.title,
      amount: input.amount,
      deadline,
      image: input.image ?? null,
      isMonthly: input.is_monthly ?? false,
      homeCardClosed: input.home_card_closed ?? false,
      categoryId: input.category_id ?? null,
    });
    // the reminder references the goal by id only, so the goal row must exist first
    await tx.flush();
    if (input.reminder) {
      await saveReminder(tx, created, ctx, input.reminder);
      // a reminder plans contributions: the cash-flow forecast changes
      await forecastInputsChanged(tx, [contextRef(ctx)]);
    }
    await tx.flush();
    return keepAnswer((await goalViewsOf(tx, [created], categories))[0]);
  });
}

export async function listGoals(em: EntityManager, ledger: LedgerInsightsClient, ctx: CallerContext, page: PageQuery) {
  const { items, next_cursor } = idPage(await listGoalsPage(em, ctx, page.limit, afterIdOf(page.cursor)), page.limit);
  return { data: await goalViews(em, ledger, ctx, items), next_cursor };
}

export async function getGoal(em: EntityManager, ledger: LedgerInsightsClient, ctx: CallerContext, id: string) {
  const goal = await findGoal(em, ctx, id);
  if (!goal) throw notFound(GOAL_NOT_FOUND);
  return { goal: await viewOne(em, ledger, ctx, goal) };
}

export async function updateGoal(
  em: EntityManager,
  ledger: LedgerInsightsClient,
  ctx: CallerContext,
  id: string,
  input: GoalFields,
) {
  const deadline = input.deadline !== undefined ? deadlineOf(input.deadline) : undefined;
  checkReminder(input.reminder);
  const found = await findGoal(em, ctx, id);
  if (!found) throw notFound(GOAL_NOT_FOUND);
  // the category is asked of the ledger before the transaction: the answer is made inside it (keepAnswer)
  const categories = input.category_id
    ? categoriesBy(await assertCategory(ledger, ctx, input.category_id))
    : await goalCategories(ledger, ctx, [found.categoryId ?? null]);
  return em.transactional(async (tx) => {
    const row = await findGoal(tx, ctx, id);
    if (!row) throw notFound(GOAL_NOT_FOUND);
    if (input.title !== undefined) row.title = input.title;
    if (input.amount !== undefined) row.amount = input.amount;
    if (deadline !== undefined) row.deadline = deadline;
    if (input.image !== undefined) row.image = input.image;
    if (input.is_monthly !== undefined) row.isMonthly = input.is_monthly;
    if (input.home_card_closed !== undefined) row.homeCardClosed = input.home_card_closed;
    if (input.category_id !== undefined) row.categoryId = input.category_id;
    if (input.reminder !== undefined) {
      await saveReminder(tx, row, ctx, input.reminder);
      await forecastInputsChanged(tx, [contextRef(ctx)]);
    }
    await tx.flush();
    return keepAnswer((await goalViewsOf(tx, [row], categories))[0]);
  });
}

export async function deleteGoal(em: EntityManager, ledger: LedgerInsightsClient, ctx: CallerContext, id: string) {
  const goal = await findGoal(em, ctx, id);
  if (!goal) throw notFound(GOAL_NOT_FOUND);
  const view = await viewOne(em, ledger, ctx, goal);
  // values and reminder go with it (foreign keys cascade)
  return em.transactional(async (tx) => {
    await tx.nativeDelete(GoalSchema, { id: goal.id });
    if (view.reminder) await forecastInputsChanged(tx, [contextRef(ctx)]);
    return keepAnswer(view);
  });
}

const categoriesBy = (category: CategoryRef) => new Map([[category.id, category]]);
