import type { CalendarDate } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportedCardInput } from '@finance/shared/contracts/internal/billing-for-ledger';
import { contextSql, contextWhere } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { CardDays } from '../domain/bills/bill-calendar.ts';
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

/** A live card of the context with one of its bills the rollover has not carried (null columns when none). */
export interface CardUnrolledBillRow extends CardBillRow {
  name: string;
  account_id: string;
}

/** The context's live cards with their bills not carried yet, in one statement (card, then month order). */
export async function cardsWithUnrolledBills(em: EntityManager, ctx: CallerContext): Promise<CardUnrolledBillRow[]> {
  const statement = cardsWithUnrolledBillsStatement(ctx);
  return runSql<CardUnrolledBillRow>(em, statement.sql, statement.params);
}

/** The statement of `cardsWithUnrolledBills` (billing schema on the search path); the bench's forecast floor runs it. */
export function cardsWithUnrolledBillsStatement(ctx: CallerContext): { sql: string; params: unknown[] } {
  const scope = contextSql(ctx, 'c');
  return {
    sql: `select c.id as card_id, c.name, c.account_id, c.closing_day, c.due_day, c.calendar, b.id as bill_id,
       to_char(b.reference_month, 'YYYY-MM-DD') as reference_month, to_char(b.closing_date, 'YYYY-MM-DD') as closing_date,
       to_char(b.due_date, 'YYYY-MM-DD') as due_date
     from credit_cards c
       left join bills b on b.credit_card_id = c.id and b.rolled_over_at is null
     where ${scope.sql} and c.deleted_at is null
     order by c.id, b.reference_month`,
    params: scope.params,
  };
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

/** A live card of the context with one of its stored bills (null columns when it has none in the window). */
export interface CardBillRow {
  card_id: string;
  closing_day: number;
  due_day: number;
  calendar: CardDays['calendar'];
  bill_id: string | null;
  reference_month: string | null;
  closing_date: string | null;
  due_date: string | null;
}

/** The live cards of the context with their bills whose reference month is between `from` and `to`. */
export async function cardsWithBillsBetween(
  em: EntityManager,
  ctx: CallerContext,
  from: CalendarDate,
  to: CalendarDate,
): Promise<CardBillRow[]> {
  const scope = contextSql(ctx, 'c');
  return runSql<CardBillRow>(
    em,
    `select c.id as card_id, c.closing_day, c.due_day, c.calendar, b.id as bill_id,
       to_char(b.reference_month, 'YYYY-MM-DD') as reference_month, to_char(b.closing_date, 'YYYY-MM-DD') as closing_date,
       to_char(b.due_date, 'YYYY-MM-DD') as due_date
     from credit_cards c
       left join bills b on b.credit_card_id = c.id and b.reference_month between ?::date and ?::date
     where ${scope.sql} and c.deleted_at is null`,
    [from, to, ...scope.params],
  );
}

/** An open-banking card to upsert, with its new id and resolved closing day. */
export type ImportedCardRow = ImportedCardInput & { id: string; closing: number; review: boolean };

/**
 * Upserts open-banking cards by (context, connection, external id) in one statement; rows that did not change
 * are not touched, deleted cards stay deleted. One row per card created or changed.
 */
export async function upsertImportedCards(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  rows: ImportedCardRow[],
): Promise<Array<{ created: boolean }>> {
  return runSql(
    em,
    `insert into credit_cards as c (id, user_id, profile_id, name, logo, account_id, closing_day, due_day, "limit",
       bank_available_limit, is_unlimited, needs_closing_date_review, connection_id, external_id, created_at, updated_at)
     select r.id, ?, ?, r.name, null, coalesce(r.account_id, e.account_id), r.closing, r.due_day, r."limit",
       r.available_limit, false, r.review, ?, r.external_id, now(), now()
     from jsonb_to_recordset(?::jsonb) as r(id uuid, name text, account_id uuid, closing int, due_day int, "limit" bigint,
       available_limit bigint, review boolean, external_id text, without_account boolean)
     left join credit_cards e on e.context_id = ? and e.connection_id = ? and e.external_id = r.external_id
     where coalesce(r.account_id, e.account_id) is not null or r.without_account
     on conflict (context_id, connection_id, external_id) where external_id is not null do update set
       name = excluded.name,
       account_id = coalesce(excluded.account_id, c.account_id),
       closing_day = case when excluded.needs_closing_date_review then c.closing_day else excluded.closing_day end,
       needs_closing_date_review = c.needs_closing_date_review and excluded.needs_closing_date_review,
       due_day = excluded.due_day,
       "limit" = excluded."limit",
       bank_available_limit = excluded.bank_available_limit,
       updated_at = now()
     where c.deleted_at is null and (c.name, c.account_id, c.closing_day, c.needs_closing_date_review, c.due_day, c."limit",
         c.bank_available_limit)
       is distinct from (excluded.name, excluded.account_id,
         case when excluded.needs_closing_date_review then c.closing_day else excluded.closing_day end,
         c.needs_closing_date_review and excluded.needs_closing_date_review, excluded.due_day, excluded."limit",
         excluded.bank_available_limit)
     returning (xmax = 0) as created`,
    [ctx.userId, ctx.profileId, connectionId, JSON.stringify(rows), ctx.profileId ?? ctx.userId, connectionId],
  );
}

/** Every card (deleted too) of the context imported through a connection, by id. */
export async function cardsOfConnection(em: EntityManager, ctx: CallerContext, connectionId: string) {
  const scope = contextSql(ctx);
  return runSql<{ id: string; external_id: string; account_id: string | null; deleted: boolean }>(
    em,
    `select id, external_id, account_id, deleted_at is not null as deleted from credit_cards
     where connection_id = ? and external_id is not null and ${scope.sql} order by id`,
    [connectionId, ...scope.params],
  );
}

/** Moves the live cards of the context from one account to another; the cards moved. */
export async function moveLiveCards(em: EntityManager, ctx: CallerContext, fromAccountId: string, toAccountId: string) {
  const scope = contextSql(ctx);
  return runSql<{ id: string; account_id: string }>(
    em,
    `update credit_cards set account_id = ?, updated_at = now()
       where account_id = ? and deleted_at is null and ${scope.sql} returning id, account_id`,
    [toAccountId, fromAccountId, ...scope.params],
  );
}

/** The live cards of the context linked to an account, by id. */
export async function liveCardsOfAccount(em: EntityManager, ctx: CallerContext, accountId: string) {
  const scope = contextSql(ctx);
  return runSql<{ id: string; account_id: string }>(
    em,
    `select id, account_id from credit_cards where account_id = ? and deleted_at is null and ${scope.sql} order by id`,
    [accountId, ...scope.params],
  );
}
