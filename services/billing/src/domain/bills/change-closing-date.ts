import { type CalendarDate, compare, startOfMonth, todayUtc } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ClosingDateChange, EditionType } from '@finance/shared/contracts/billing/bills';
import type { CardCalendarInput } from '@finance/shared/contracts/internal/ledger-for-billing';
import { newId } from '@finance/shared/db/base-entity';
import { contextOfRef } from '@finance/shared/db/context-scope';
import { conflict, notFound } from '@finance/shared/errors/app-error';
import { keepRecoveryPoint } from '@finance/shared/http/kept-answer';
import { type CardLedgerSyncJob, QUEUES } from '@finance/shared/queue/catalogue';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  billsInMonths,
  billsOfCards,
  byMonth,
  findBill,
  insertMissingBills,
  type StoredBill,
  updateBillDates,
} from '../../data-access/bill-repository.ts';
import { findCard, findCardById, lockCard } from '../../data-access/card-repository.ts';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';
import { billPeriodForMonth } from '../bill-period.ts';
import { contextToday } from '../context-today.ts';
import { CARD_NOT_FOUND } from './assign-bills.ts';
import { type BillDates, calendarFrom, datesOfMonth, monthForDate, monthWindow, openDateOf } from './bill-calendar.ts';
import { BILL_NOT_FOUND } from './pay-bill.ts';
import { loadBill } from './show-bill.ts';

export const CLOSED_BILL = 'Fatura já fechada: suas datas e lançamentos não mudam';

const sameDates = (a: BillDates, b: BillDates) => a.closingDate === b.closingDate && a.dueDate === b.dueDate;

/** The month of the open bill: the one whose period holds `today` (read without locks). */
export async function openMonthOf(em: EntityManager, card: CreditCard, today: CalendarDate): Promise<CalendarDate> {
  const window = monthWindow([today]);
  return monthForDate(card, byMonth(await billsInMonths(em, card.id, window.from, window.to)), today);
}

/**
 * Inside billing's transaction with the card locked: gives the bills in scope the new days and returns how
 * many bills' dates changed and the card's calendar for the ledger, which moves the purchases after the
 * commit (docs/architecture.md rule 9). A closed bill (closing date on or before `today`) is history: its
 * dates and purchases never change, so THIS_AND_NEXT and ALL start at the open bill at the earliest, and the
 * card's days change as a dated version from there (months before keep theirs, stored or not).
 */
export async function applyClosingDays(
  tx: EntityManager,
  card: CreditCard,
  change: { month: CalendarDate | null; editionType: EditionType; closingDay: number; dueDay: number },
  today: CalendarDate,
): Promise<{ updated: number; calendar: CardCalendarInput; month: CalendarDate }> {
  const before = await billsInMonths(tx, card.id, null, null);
  const oldStored = byMonth(before);
  const oldCard = { closingDay: card.closingDay, dueDay: card.dueDay, calendar: card.calendar };
  const openMonth = monthForDate(oldCard, oldStored, today);
  const month = change.month ?? openMonth;
  const closed = (m: CalendarDate) => compare(datesOfMonth(oldCard, oldStored, m).closingDate, today) <= 0;
  if (change.editionType === 'THIS' && closed(month)) throw conflict(CLOSED_BILL);
  // the first month that may change: never a closed bill
  const first =
    change.editionType === 'THIS' || (change.editionType === 'THIS_AND_NEXT' && compare(month, openMonth) > 0)
      ? month
      : openMonth;
  const months =
    change.editionType === 'THIS'
      ? [month]
      : [...new Set([...before.map((bill) => bill.referenceMonth), month])].filter(
          (m) => compare(m, first) >= 0 && !closed(m),
        );
  const newDates = new Map(
    months.map((m) => {
      const [year, monthNumber] = m.split('-').map(Number);
      const period = billPeriodForMonth(change.closingDay, change.dueDay, year, monthNumber);
      return [m, { referenceMonth: m, closingDate: period.closingDate, dueDate: period.dueDate }];
    }),
  );
  const updated = months.filter((m) => !sameDates(datesOfMonth(oldCard, oldStored, m), newDates.get(m)!)).length;

  if (change.editionType !== 'THIS') {
    card.calendar = calendarFrom(oldCard, first, change);
    card.closingDay = change.closingDay;
    card.dueDay = change.dueDay;
    // a closing day the user sets for the card from now on is reviewed, whatever the import guessed
    card.needsClosingDateReview = false;
  }
  card.calendarVersion += 1;
  // the ledger learns the new calendar after the commit; if the direct call below fails, this job still does it
  recordCardLedgerSync(tx, card, 'rebill', first);
  await tx.flush();
  await updateBillDates(
    tx,
    before
      .filter((bill) => newDates.has(bill.referenceMonth))
      .map((bill) => ({ ...newDates.get(bill.referenceMonth)!, id: bill.id })),
  );
  const owner = { userId: card.userId, profileId: card.profileId ?? null, cardId: card.id };
  await insertMissingBills(
    tx,
    owner,
    months.filter((m) => !oldStored.has(m)).map((m) => newDates.get(m)!),
  );
  return { updated, month, calendar: await cardCalendar(tx, card, first) };
}

/** Records, in billing's outbox with the change, what the ledger must apply for this calendar version. */
export function recordCardLedgerSync(
  tx: EntityManager,
  card: CreditCard,
  kind: 'rebill' | 'delete',
  first?: CalendarDate,
) {
  const job: CardLedgerSyncJob = {
    context: { user_id: card.userId, profile_id: card.profileId ?? null },
    credit_card_id: card.id,
    calendar_version: card.calendarVersion,
  };
  if (first) job.first_month = first;
  recordJob(tx, QUEUES.cardLedgerSync, kind, { ...job }, newId());
}

/**
 * The outbox job's side: tells the ledger what a committed card change means for its entries, unless a newer
 * change superseded it (its own job does the work). Idempotent, like the ledger endpoints it calls.
 */
export async function syncCardWithLedger(
  em: EntityManager,
  ledger: LedgerBillingClient,
  kind: 'rebill' | 'delete',
  job: CardLedgerSyncJob,
): Promise<'applied' | 'superseded'> {
  const card = await findCardById(em, job.credit_card_id);
  if (!card || card.calendarVersion !== job.calendar_version) return 'superseded';
  const ctx = contextOfRef(job.context);
  if (kind === 'delete') {
    if (!card.deletedAt) return 'superseded';
    const bills = await billsOfCards(em, [card.id]);
    await ledger.deleteCardTransactions(
      ctx,
      card.id,
      bills.map((bill) => bill.id),
      card.calendarVersion,
    );
    return 'applied';
  }
  if (card.deletedAt) return 'superseded';
  await rebillAfterChange(em, ledger, ctx, await cardCalendar(em, card, job.first_month ?? startOfMonth(todayUtc())));
  return 'applied';
}

/** The periods of the card's stored bills from month `first` on, under the card's current calendar version. */
async function cardCalendar(em: EntityManager, card: CreditCard, first: CalendarDate): Promise<CardCalendarInput> {
  const all = await billsInMonths(em, card.id, null, null);
  const stored = byMonth(all);
  return {
    credit_card_id: card.id,
    calendar_version: card.calendarVersion,
    first_month: first,
    bills: all
      .filter((bill) => compare(bill.referenceMonth, first) >= 0)
      .map((bill) => ({
        bill_id: bill.id,
        open_date: openDateOf(card, stored, bill.referenceMonth),
        closing_date: bill.closingDate,
      })),
  };
}

/**
 * After the change committed, with no lock held: the ledger moves the card's purchases to the bills of their
 * dates. Purchases whose new bill is not stored yet come back as dates; their bills are created (still under
 * the same version, else a newer change does the work) and the ledger is asked again.
 */
export async function rebillAfterChange(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  calendar: CardCalendarInput,
): Promise<void> {
  let current: CardCalendarInput | null = calendar;
  for (let round = 0; current && round < 5; round++) {
    const { uncovered } = await ledger.rebill(ctx, current);
    if (uncovered.length === 0) return;
    const sent: CardCalendarInput = current;
    current = await em.fork().transactional(async (tx) => {
      const card = await lockCard(tx, sent.credit_card_id);
      if (card.calendarVersion !== sent.calendar_version || card.deletedAt) return null;
      const stored = byMonth(await billsInMonths(tx, card.id, null, null));
      const months = [...new Set(uncovered.map((date) => monthForDate(card, stored, date)))];
      await insertMissingBills(
        tx,
        { userId: card.userId, profileId: card.profileId ?? null, cardId: card.id },
        months.filter((m) => !stored.has(m)).map((m) => datesOfMonth(card, stored, m)),
      );
      return cardCalendar(tx, card, sent.first_month);
    });
  }
}

export async function changeClosingDate(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cardId: string,
  input: ClosingDateChange,
) {
  const card = await findCard(em, ctx, cardId);
  if (!card) throw notFound(CARD_NOT_FOUND);
  let reference: StoredBill | null = null;
  if (input.bill_id) {
    reference = await findBill(em, ctx, input.bill_id, 'b');
    if (!reference || reference.creditCardId !== card.id) throw notFound(BILL_NOT_FOUND);
  }
  const today = await contextToday(ledger, ctx);
  // no reference: the open bill (the one whose period holds today), never a closed one
  const month =
    reference?.referenceMonth ??
    (input.edition_date ? startOfMonth(input.edition_date) : await openMonthOf(em, card, today));
  const editionType = input.edition_type;
  // a THIS change without a due day keeps the bill's own (an earlier THIS change may have set it)
  const stored = editionType === 'THIS' ? (reference ?? (await billsInMonths(em, card.id, month, month))[0]) : null;
  const ownDueDay = stored ? Number(stored.dueDate.slice(8, 10)) : card.dueDay;
  // the bank defines the due day of open-banking cards
  const dueDay = card.connectionId ? card.dueDay : (input.expiring_day ?? ownDueDay);
  const { updated, calendar, locked } = await em.transactional(async (tx) => {
    const locked = await lockCard(tx, card.id);
    const result = await applyClosingDays(
      tx,
      locked,
      { month, editionType, closingDay: input.closing_day, dueDay },
      today,
    );
    // the bill's figures in the answer follow the ledger's move below: a retry rebuilds the answer from here
    const point: ClosingDateRecovery = { updated: result.updated, month };
    keepRecoveryPoint(point);
    return { ...result, locked };
  });
  // after the commit, with no lock held: the ledger moves the purchases to the bills of their dates
  await rebillAfterChange(em, ledger, ctx, calendar);
  const { bill } = await loadBill(em.fork(), ledger, ctx, locked, month);
  return { updated, bill };
}

interface ClosingDateRecovery {
  updated: number;
  month: CalendarDate;
}

/**
 * A retry's answer after the first attempt's was lost: its count and the bill as it is now (the outbox job has
 * moved, or will move, the purchases).
 */
export async function recoverClosingDateChange(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cardId: string,
  point: unknown,
) {
  const { updated, month } = point as ClosingDateRecovery;
  const card = await findCard(em, ctx, cardId);
  if (!card) throw notFound(CARD_NOT_FOUND);
  const { bill } = await loadBill(em, ledger, ctx, card, month);
  return { updated, bill };
}
