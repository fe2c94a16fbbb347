import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CardFields, CreateCardBody } from '@finance/shared/contracts/billing/credit-cards';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { CardCalendarInput } from '@finance/shared/contracts/internal/ledger-for-billing';
import { ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, encodeCursor } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { flushKeepingAnswer, keepAnswer, keepRecoveryPoint } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsOfCards, retireBillsOfCard } from '../../data-access/bill-repository.ts';
import { findCard, listCardsPage, lockCard } from '../../data-access/card-repository.ts';
import { type CreditCard, CreditCardSchema } from '../../data-access/entities/credit-card.ts';
import { CARD_NOT_FOUND } from '../bills/assign-bills.ts';
import { applyClosingDays, rebillAfterChange, recordCardLedgerSync } from '../bills/change-closing-date.ts';
import { contextToday } from '../context-today.ts';
import { cardView } from './card-view.ts';
import { owedByCard } from './owed-by-card.ts';

async function requireAccount(ledger: LedgerBillingClient, ctx: CallerContext, accountId: string) {
  if (!(await ledger.accountExists(ctx, accountId))) throw notFound('Conta não encontrada');
}

async function viewOf(em: EntityManager, ledger: LedgerBillingClient, ctx: CallerContext, card: CreditCard) {
  const owed = await owedByCard(em, ledger, ctx, [card]);
  return cardView(card, owed.get(card.id) ?? 0);
}

export async function createCard(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  input: CreateCardBody,
) {
  await requireAccount(ledger, ctx, input.account_id);
  const card = em.create(CreditCardSchema, {
    ...ownerOf(ctx),
    name: input.name,
    logo: input.logo ?? null,
    accountId: input.account_id,
    closingDay: input.closing_date,
    dueDay: input.expiring_date,
    limit: input.limit ?? 0,
    isUnlimited: input.is_unlimited ?? false,
    needsClosingDateReview: false,
    connectionId: null,
    externalId: null,
    deletedAt: null,
  });
  return flushKeepingAnswer(em, () => cardView(card, 0));
}

export async function getCard(em: EntityManager, ledger: LedgerBillingClient, ctx: CallerContext, id: string) {
  const card = await findCard(em, ctx, id);
  if (!card) throw notFound(CARD_NOT_FOUND);
  return viewOf(em, ledger, ctx, card);
}

export async function listCards(em: EntityManager, ledger: LedgerBillingClient, ctx: CallerContext, page: PageQuery) {
  const rows = await listCardsPage(em, ctx, page.limit, afterIdOf(page.cursor));
  const items = rows.slice(0, page.limit);
  const owed = await owedByCard(em, ledger, ctx, items);
  return {
    data: items.map((card) => cardView(card, owed.get(card.id) ?? 0)),
    next_cursor: rows.length > page.limit ? encodeCursor([items[items.length - 1].id]) : null,
  };
}

/** Only the fields sent change; new days apply from the current bill on (THIS_AND_NEXT). */
export async function updateCard(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  id: string,
  input: CardFields,
) {
  const found = await findCard(em, ctx, id);
  if (!found) throw notFound(CARD_NOT_FOUND);
  if (input.account_id !== undefined && input.account_id !== found.accountId) {
    await requireAccount(ledger, ctx, input.account_id);
  }
  // new days apply from the context's open bill (today read before any transaction opens)
  const today = await contextToday(ledger, ctx);
  const { card, calendar } = await em.transactional(async (tx) => {
    const locked = await lockCard(tx, id);
    if (input.name !== undefined) locked.name = input.name;
    if (input.logo !== undefined) locked.logo = input.logo;
    if (input.account_id !== undefined) locked.accountId = input.account_id;
    if (input.limit !== undefined) locked.limit = input.limit;
    if (input.is_unlimited !== undefined) locked.isUnlimited = input.is_unlimited;
    const closingDay = input.closing_date ?? locked.closingDay;
    const dueDay = locked.connectionId ? locked.dueDay : (input.expiring_date ?? locked.dueDay);
    let calendar: CardCalendarInput | null = null;
    if (closingDay !== locked.closingDay || dueDay !== locked.dueDay) {
      // new days act like THIS_AND_NEXT from the open bill: closed bills keep theirs
      ({ calendar } = await applyClosingDays(
        tx,
        locked,
        { month: null, editionType: 'THIS_AND_NEXT', closingDay, dueDay },
        today,
      ));
    }
    // sending the closing day confirms it, even unchanged
    if (input.closing_date !== undefined) locked.needsClosingDateReview = false;
    await tx.flush();
    // the answer (what the card holds, from the ledger) comes after the commit: a retry rebuilds it (getCard)
    keepRecoveryPoint({});
    return { card: locked, calendar };
  });
  // after the commit, with no lock held (docs/architecture.md rule 9)
  if (calendar) await rebillAfterChange(em, ledger, ctx, calendar);
  return viewOf(em.fork(), ledger, ctx, card);
}

/** Logical deletion: the card, its bills, its entries and their payments vanish from every read and total. */
export async function deleteCard(em: EntityManager, ledger: LedgerBillingClient, ctx: CallerContext, id: string) {
  const card = await findCard(em, ctx, id);
  if (!card) throw notFound(CARD_NOT_FOUND);
  const view = await viewOf(em, ledger, ctx, card);
  const { bills, version } = await em.transactional(async (tx) => {
    const locked = await lockCard(tx, id);
    locked.deletedAt = now();
    // a purchase billed before the deletion is refused by the ledger once it has seen this version
    locked.calendarVersion += 1;
    // the ledger removes the card's entries after the commit; if the direct call below fails, this job still does
    recordCardLedgerSync(tx, locked, 'delete');
    await tx.flush();
    await retireBillsOfCard(tx, id);
    keepAnswer(view);
    return { bills: await billsOfCards(tx, [id]), version: locked.calendarVersion };
  });
  // after the commit, with no lock held (docs/architecture.md rule 9); the ledger's deletion is idempotent
  await ledger.deleteCardTransactions(
    ctx,
    id,
    bills.map((bill) => bill.id),
    version,
  );
  return view;
}
