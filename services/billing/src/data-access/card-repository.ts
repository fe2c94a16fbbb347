import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextWhere } from '@finance/shared/db/context-scope';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { type CreditCard, CreditCardSchema } from './entities/credit-card.ts';

export async function findCard(em: EntityManager, ctx: CallerContext, id: string): Promise<CreditCard | null> {
  return em.findOne(CreditCardSchema, { id, deletedAt: null, ...contextWhere(ctx) });
}

/** A card by id alone, deleted or not (background jobs that carry the card's context in their payload). */
export async function findCardById(em: EntityManager, id: string): Promise<CreditCard | null> {
  return em.findOne(CreditCardSchema, { id }, { refresh: true });
}

export async function listCardsPage(em: EntityManager, ctx: CallerContext, limit: number, afterId: string | null) {
  return em.find(
    CreditCardSchema,
    { deletedAt: null, ...contextWhere(ctx), ...(afterId ? { id: { $gt: afterId } } : {}) },
    { orderBy: { id: 'asc' }, limit: limit + 1 },
  );
}

export async function cardsOfAccount(em: EntityManager, ctx: CallerContext, accountId: string) {
  return em.find(CreditCardSchema, { accountId, deletedAt: null, ...contextWhere(ctx) }, { orderBy: { id: 'asc' } });
}

/** The card row locked for the rest of the transaction: closing-day changes and rollovers of a card queue up. */
export async function lockCard(em: EntityManager, id: string): Promise<CreditCard> {
  return em.findOneOrFail(CreditCardSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * The context's live card, locked `FOR SHARE` for the rest of the transaction: bill assignments run side by
 * side, and a closing-day change or deletion (`FOR UPDATE`) waits for them, so each assignment is made under
 * one calendar version.
 */
export async function findCardShared(em: EntityManager, ctx: CallerContext, id: string): Promise<CreditCard | null> {
  return em.findOne(
    CreditCardSchema,
    { id, deletedAt: null, ...contextWhere(ctx) },
    { lockMode: LockMode.PESSIMISTIC_READ, refresh: true },
  );
}
