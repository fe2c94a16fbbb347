import { addMonthsClamped, type CalendarDate, compare, startOfMonth } from '@finance/shared/calendar';
import type { BillMove, LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EditionType } from '@finance/shared/contracts/billing/bills';
import { contextSql } from '@finance/shared/db/context-scope';
import { notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type BillRow,
  billsInMonths,
  byMonth,
  findBill,
  insertMissingBills,
  updateBillDates,
} from '../../data-access/bill-repository.ts';
import { findCard, lockCard } from '../../data-access/card-repository.ts';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';
import { billPeriodForMonth } from '../bill-period.ts';
import { contextToday } from '../context-today.ts';
import { CARD_NOT_FOUND } from './assign-bills.ts';
import { type BillDates, datesOfMonth, monthForDate, openDateOf } from './bill-calendar.ts';
import { BILL_NOT_FOUND } from './pay-bill.ts';
import { loadBill } from './show-bill.ts';

export interface ClosingDateInput {
  closing_day: number;
  edition_date?: string;
  bill_id?: string;
  edition_type?: EditionType;
  expiring_day?: number;
}

const sameDates = (a: BillDates, b: BillDates) => a.closingDate === b.closingDate && a.dueDate === b.dueDate;

/**
 * Gives the bills in scope the new days, then moves every card transaction to the bill its date now falls
 * in (one ledger call). Returns how many bills' dates changed. Runs inside the caller's transaction.
 */
export async function applyClosingDays(
  tx: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  card: CreditCard,
  change: { month: CalendarDate; editionType: EditionType; closingDay: number; dueDay: number },
): Promise<number> {
  const before = await billsInMonths(tx, card.id, null, null);
  const oldStored = byMonth(before);
  const oldDays = { closingDay: card.closingDay, dueDay: card.dueDay };
  const inScope = (month: CalendarDate) =>
    change.editionType === 'ALL' ||
    month === change.month ||
    (change.editionType === 'THIS_AND_NEXT' && compare(month, change.month) > 0);
  const months = [...new Set([...before.map((bill) => bill.referenceMonth), change.month])].filter(inScope);
  const newDates = new Map(
    months.map((month) => {
      const [year, monthNumber] = month.split('-').map(Number);
      const period = billPeriodForMonth(change.closingDay, change.dueDay, year, monthNumber);
      return [month, { referenceMonth: month, closingDate: period.closingDate, dueDate: period.dueDate }];
    }),
  );
  const updated = months.filter(
    (month) => !sameDates(datesOfMonth(oldDays, oldStored, month), newDates.get(month)!),
  ).length;
  // transactions from a month before the first bill in scope on may change bill; earlier ones cannot
  const firstMonth = [...months].sort()[0];
  const from = change.editionType === 'ALL' ? null : addMonthsClamped(openDateOf(oldDays, oldStored, firstMonth), -1);

  if (change.editionType !== 'THIS') {
    card.closingDay = change.closingDay;
    card.dueDay = change.dueDay;
    // a closing day the user sets for the card from now on is reviewed, whatever the import guessed
    card.needsClosingDateReview = false;
    await tx.flush();
  }
  const existing = before.filter((bill) => newDates.has(bill.referenceMonth));
  await updateBillDates(
    tx,
    existing.map((bill) => ({ ...newDates.get(bill.referenceMonth)!, id: bill.id })),
  );
  const owner = { userId: card.userId, profileId: card.profileId ?? null, cardId: card.id };
  await insertMissingBills(
    tx,
    owner,
    months.filter((month) => !oldStored.has(month)).map((m) => newDates.get(m)!),
  );

  const transactions = await ledger.datesOfCard(ctx, card.id, from);
  if (transactions.length === 0) return updated;
  const stored = byMonth(await billsInMonths(tx, card.id, null, null));
  const targets = transactions.map((t) => monthForDate(card, stored, t.date));
  await insertMissingBills(
    tx,
    owner,
    [...new Set(targets)].filter((month) => !stored.has(month)).map((month) => datesOfMonth(card, stored, month)),
  );
  const bills = new Map((await billsInMonths(tx, card.id, null, null)).map((bill) => [bill.referenceMonth, bill]));
  const moves = new Map<string, BillMove>();
  transactions.forEach((t, index) => {
    const bill = bills.get(targets[index])!;
    if (t.bill_id === bill.id) return;
    const move = moves.get(bill.id) ?? { bill_id: bill.id, billed_at: bill.closingDate, transaction_ids: [] };
    move.transaction_ids.push(t.id);
    moves.set(bill.id, move);
  });
  await ledger.reassign(ctx, card.id, [...moves.values()]);
  return updated;
}

export async function changeClosingDate(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cardId: string,
  input: ClosingDateInput,
) {
  const card = await findCard(em, ctx, cardId);
  if (!card) throw notFound(CARD_NOT_FOUND);
  let reference: BillRow | null = null;
  if (input.bill_id) {
    reference = await findBill(em, contextSql(ctx, 'b'), input.bill_id);
    if (!reference || reference.creditCardId !== card.id) throw notFound(BILL_NOT_FOUND);
  }
  const month = reference?.referenceMonth ?? startOfMonth(input.edition_date ?? (await contextToday(ledger, ctx)));
  const editionType = input.edition_type ?? 'THIS';
  // a THIS change without a due day keeps the bill's own (an earlier THIS change may have set it)
  const stored = editionType === 'THIS' ? (reference ?? (await billsInMonths(em, card.id, month, month))[0]) : null;
  const ownDueDay = stored ? Number(stored.dueDate.slice(8, 10)) : card.dueDay;
  // the bank defines the due day of open-banking cards
  const dueDay = card.connectionId ? card.dueDay : (input.expiring_day ?? ownDueDay);
  const { updated, locked } = await em.transactional(async (tx) => {
    const locked = await lockCard(tx, card.id);
    const count = await applyClosingDays(tx, ledger, ctx, locked, {
      month,
      editionType,
      closingDay: input.closing_day,
      dueDay,
    });
    return { updated: count, locked };
  });
  const { bill } = await loadBill(em.fork(), ledger, ctx, locked, month);
  return { updated, bill };
}
