import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAssignment } from '@finance/shared/contracts/internal/billing-for-ledger';
import { contextOfRef } from '@finance/shared/db/context-scope';
import { AppError, conflict, invalidField, notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockCardCalendars } from '../../data-access/card-calendar-repository.ts';
import type { NewTransaction, TransactionRow } from '../../data-access/transaction-repository.ts';
import { setBills } from '../../data-access/transaction-updates.ts';

/**
 * Versions of the cards' bill calendars that billing answered with (card id → version). Billing is asked
 * before the ledger opens its transaction (docs/architecture.md rule 9); inside it, `assertCalendarsCurrent`
 * checks that no closing-day change or card deletion was applied since.
 */
export type CalendarVersions = Map<string, number>;

/** A card's calendar changed between billing's answer and the write: the caller asks billing again. */
export class StaleCardCalendar extends Error {
  constructor(cardId: string) {
    super(`calendário do cartão ${cardId} mudou`);
    this.name = 'StaleCardCalendar';
  }
}

/**
 * Inside the writer's transaction: locks the calendar rows of the cards `FOR SHARE` (a re-billing takes them
 * `FOR UPDATE`, so it waits for this write and then sees it) and refuses when the ledger already applied a
 * newer version than the one the bills were assigned under. Take it before any transaction row lock.
 */
export async function assertCalendarsCurrent(em: EntityManager, seen: CalendarVersions): Promise<void> {
  const stored = await lockCardCalendars(em, [...seen.keys()], 'share');
  for (const [cardId, version] of seen) {
    if ((stored.get(cardId) ?? 0) > version) throw new StaleCardCalendar(cardId);
  }
}

/**
 * Runs `attempt` (which asks billing first and writes after) again when a card's calendar changed in
 * between; after a few tries the client gets a 409 to retry.
 */
export async function withCurrentCalendars<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof StaleCardCalendar)) throw err;
      if (round >= tries) throw conflict('O calendário do cartão mudou durante a operação; tente novamente');
    }
  }
}

/** The bill of each date from billing; a card outside the context is 404 as the client sent it. */
async function assignmentsFor(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  creditCardId: string,
  dates: string[],
  seen?: CalendarVersions,
) {
  try {
    const answer = await billing.assign(ctx, creditCardId, dates);
    seen?.set(creditCardId, answer.card.calendar_version ?? 0);
    return answer.assignments;
  } catch (err) {
    if (err instanceof AppError && err.status === 404)
      throw notFound('Cartão de crédito não encontrado (credit_card_id)');
    throw err;
  }
}

/**
 * Card rows (docs/decisions.md §6, §8): no account, always paid with `paid_at` at their date, and the bill billing
 * assigns to each date, so the installments of a purchase fill successive bills. One billing call, made
 * before the caller's transaction; the calendar version it answered goes into `seen`.
 */
export async function billCardRows<T extends Pick<NewTransaction, 'date'>>(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  creditCardId: string,
  rows: T[],
  seen?: CalendarVersions,
): Promise<T[]> {
  if (rows.length === 0) return rows;
  const assignments = await assignmentsFor(
    billing,
    ctx,
    creditCardId,
    rows.map((row) => row.date),
    seen,
  );
  return rows.map((row, index) => ({
    ...row,
    account_id: null,
    credit_card_id: creditCardId,
    paid: true,
    paid_at: `${row.date}T00:00:00.000Z`,
    bill_id: assignments[index].bill_id,
    billed_at: assignments[index].billed_at,
  }));
}

/** Exactly one of `account_id` / `credit_card_id` (docs/decisions.md §6). */
export function assertOneHolder(input: { account_id?: string; credit_card_id?: string }): void {
  if ((input.account_id === undefined) === (input.credit_card_id === undefined)) {
    throw invalidField(
      input.account_id ? 'credit_card_id' : 'account_id',
      'informe exatamente um entre account_id e credit_card_id',
    );
  }
}

/** 404 unless the card is the context's (billing's assign with no dates is its lookup). */
export async function requireCard(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  creditCardId: string,
  seen?: CalendarVersions,
): Promise<void> {
  await assignmentsFor(billing, ctx, creditCardId, [], seen);
}

/** Bills of (card, date) pairs asked of billing before a transaction, keyed `card:date`. */
export type PlannedBills = Map<string, BillAssignment>;

/** One billing call per card for the dates each card's entries will have; versions go into `seen`. */
export async function planBills(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  datesByCard: Map<string, Set<string>>,
  seen: CalendarVersions,
): Promise<PlannedBills> {
  const planned: PlannedBills = new Map();
  for (const [cardId, dates] of datesByCard) {
    const list = [...dates].sort();
    const assignments = await assignmentsFor(billing, ctx, cardId, list, seen);
    for (const assignment of assignments) planned.set(`${cardId}:${assignment.date}`, assignment);
  }
  return planned;
}

/** An edit names at most one new holder (docs/decisions.md §6). */
export function assertAtMostOneHolder(input: { account_id?: string; credit_card_id?: string }): void {
  if (input.account_id !== undefined && input.credit_card_id !== undefined) {
    throw invalidField('credit_card_id', 'informe apenas um entre account_id e credit_card_id');
  }
}

/** New card rows billed from the bills planned before the transaction; a date the plan lacks is stale. */
export function applyPlannedBills<T extends Pick<NewTransaction, 'date'>>(
  planned: PlannedBills,
  creditCardId: string,
  rows: T[],
): T[] {
  return rows.map((row) => {
    const bill = planned.get(`${creditCardId}:${row.date}`);
    if (!bill) throw new StaleCardCalendar(creditCardId);
    return {
      ...row,
      account_id: null,
      credit_card_id: creditCardId,
      paid: true,
      paid_at: `${row.date}T00:00:00.000Z`,
      bill_id: bill.bill_id,
      billed_at: bill.billed_at,
    };
  });
}

/**
 * After an edit moved card entries in time: each goes to the bill its new date falls in, from the bills
 * planned before the transaction (one statement). A (card, date) the plan lacks means the rows changed since
 * it was made: `StaleCardCalendar`, so the caller plans again. Returns the rows as they now are.
 */
export async function rebillCardRows(
  planned: PlannedBills,
  em: EntityManager,
  rows: TransactionRow[],
): Promise<TransactionRow[]> {
  const moved = new Map<string, { bill_id: string; billed_at: string }>();
  for (const row of rows) {
    if (!row.credit_card_id || row.is_previous_balance) continue;
    const bill = planned.get(`${row.credit_card_id}:${row.date}`);
    if (!bill) throw new StaleCardCalendar(row.credit_card_id);
    moved.set(row.id, { bill_id: bill.bill_id, billed_at: bill.billed_at });
  }
  if (moved.size === 0) return rows;
  await setBills(
    em,
    [...moved].map(([id, bill]) => ({ id, ...bill })),
  );
  return rows.map((row) => {
    const bill = moved.get(row.id);
    return bill ? { ...row, bill_id: bill.bill_id, billed_at: new Date(`${bill.billed_at}T00:00:00.000Z`) } : row;
  });
}

/** `billCardRows` for rows of many contexts and cards (jobs): one billing call per context and card, order kept. */
export async function billCardRowsOfAnyContext<T extends NewTransaction>(
  billing: BillingLedgerClient,
  rows: T[],
  seen?: CalendarVersions,
): Promise<T[]> {
  const groups = new Map<string, number[]>();
  rows.forEach((row, index) => {
    if (!row.credit_card_id) return;
    const key = `${row.user_id}:${row.profile_id ?? ''}:${row.credit_card_id}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const result = [...rows];
  for (const indexes of groups.values()) {
    const first = rows[indexes[0]];
    const ctx = contextOfRef(first);
    const billed = await billCardRows(
      billing,
      ctx,
      first.credit_card_id as string,
      indexes.map((index) => rows[index]),
      seen,
    );
    indexes.forEach((index, k) => {
      result[index] = billed[k];
    });
  }
  return result;
}
