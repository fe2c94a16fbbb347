import type { CallerContext } from '@finance/shared/context/signed-context';
import type { GoalValueBody } from '@finance/shared/contracts/insights/goals';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GoalValueSchema } from '../../data-access/entities/goal.ts';
import { findGoal, lockedSavedAmount } from '../../data-access/goal-repository.ts';
import { goalValueView } from './goal-view.ts';
import { GOAL_NOT_FOUND } from './manage-goals.ts';

/** A withdrawal beyond the saved amount (deposits − withdrawals) is 400; the goal row lock serializes them. */
export async function addGoalValue(em: EntityManager, ctx: CallerContext, goalId: string, input: GoalValueBody) {
  return em.transactional(async (tx) => {
    const goal = await findGoal(tx, ctx, goalId);
    if (!goal) throw notFound(GOAL_NOT_FOUND);
    const saved = await lockedSavedAmount(tx, goal.id);
    if (input.is_expense && input.value > saved) {
      throw invalidField('value', `a retirada excede o valor guardado na meta (${saved} centavos)`);
    }
    const value = tx.create(GoalValueSchema, {
      goalId: goal.id,
      date: input.date,
      value: input.value,
      isExpense: input.is_expense,
    });
    await tx.flush();
    return keepAnswer(goalValueView(value));
  });
}

/** Deleting a deposit that backs later withdrawals (saved would go negative) is 400. */
export async function deleteGoalValue(em: EntityManager, ctx: CallerContext, goalId: string, valueId: string) {
  return em.transactional(async (tx) => {
    const goal = await findGoal(tx, ctx, goalId);
    if (!goal) throw notFound(GOAL_NOT_FOUND);
    const saved = await lockedSavedAmount(tx, goal.id);
    const value = await tx.findOne(GoalValueSchema, { id: valueId, goalId: goal.id });
    if (!value) throw notFound('Valor da meta não encontrado');
    if (!value.isExpense && saved - value.value < 0) {
      throw invalidField('valueId', 'excluir este depósito deixaria a meta com saldo negativo');
    }
    const view = goalValueView(value);
    tx.remove(value);
    return keepAnswer(view);
  });
}
