import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type {
  BillPaymentInput,
  CardCalendarInput,
  PreviousBalanceEntry,
} from '@finance/shared/contracts/internal/ledger-for-billing';
import { newId } from '@finance/shared/db/base-entity';
import { contextRef } from '@finance/shared/db/context-scope';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { advanceCardCalendar, lockCardCalendars } from '../../data-access/card-calendar-repository.ts';
import {
  claimRolloverSources,
  liveCardTransactionIds,
  livePaymentsOfBills,
  placedRolloverEntries,
  rebillPurchases,
  selectCardTransactionDates,
  uncoveredPurchaseDates,
} from '../../data-access/card-transaction-writes.ts';
import { lockImportHolders } from '../../data-access/import-keys.ts';
import {
  insertTransactions,
  loadByIds,
  makePlainEntries,
  softDelete,
  visibleAccountIds,
} from '../../data-access/transaction-repository.ts';
import { blankTransaction } from '../transactions/new-transaction.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { transactionView } from '../transactions/transaction-view.ts';
import { billTotals } from './bill-contents.ts';

/** Live card entries of a card dated on or after `from` (all when null), previous balances apart. */
export const cardTransactionDates = selectCardTransactionDates;

/**
 * Applies a card's bill calendar from billing after a closing-day change (docs/architecture.md rule 9):
 * every live purchase of the card dated inside a listed bill's period [open_date, closing_date) goes to that
 * bill, in one statement. The card's calendar row is locked `FOR UPDATE`, so writers that billed under the
 * older version wait, then re-bill; an older version than the one applied is a no-op (a retry or a late job).
 * Purchases outside every listed period (closed bills, history) are not touched.
 */
export async function rebillCard(em: EntityManager, ctx: CallerContext, input: CardCalendarInput) {
  return em.transactional(async (tx) => {
    const stored = (await lockCardCalendars(tx, [input.credit_card_id], 'update')).get(input.credit_card_id) ?? 0;
    if (stored > input.calendar_version) return keepAnswer({ moved: 0, uncovered: [], applied: false });
    await advanceCardCalendar(tx, input.credit_card_id, input.calendar_version);
    if (input.bills.length === 0) return keepAnswer({ moved: 0, uncovered: [], applied: true });
    const bills = JSON.stringify(input.bills);
    const rows = await rebillPurchases(tx, ctx, input.credit_card_id, bills);
    // purchases from the first period on whose bill billing has not stored yet: billing creates it and asks again
    const first = input.bills.map((bill) => bill.open_date).sort()[0];
    const uncovered = await uncoveredPurchaseDates(tx, ctx, input.credit_card_id, first, bills);
    return keepAnswer({ moved: rows.length, uncovered: uncovered.map((row) => row.date), applied: true });
  });
}

/**
 * Adds the previous-balance entries of a rollover; the key table makes a second run for the same source
 * bill a no-op, all in one transaction.
 */
export async function addPreviousBalances(em: EntityManager, ctx: CallerContext, entries: PreviousBalanceEntry[]) {
  return em.transactional(async (tx) => {
    const rows = entries.map((entry) =>
      blankTransaction({
        user_id: ctx.userId,
        profile_id: ctx.profileId,
        amount: entry.amount,
        date: entry.date,
        title: entry.title,
        is_expense: entry.is_expense ?? true,
        type: 'FIXED',
        paid: true,
        paid_at: now().toISOString(),
        credit_card_id: entry.credit_card_id,
        bill_id: entry.bill_id,
        billed_at: entry.billed_at,
        is_previous_balance: true,
      }),
    );
    const claimed = await claimRolloverSources(
      tx,
      entries.map((e) => e.source_bill_id),
      rows.map((r) => r.id),
    );
    const fresh = new Set(claimed.map((row) => row.source_bill_id));
    const toInsert = rows.filter((_, index) => fresh.has(entries[index].source_bill_id));
    await insertTransactions(tx, toInsert);
    recordTransactionChanges(tx, ctx, 'created', toInsert);
    // where each source's entry lives, written now or by an earlier run (billing records it as the carry)
    const placed = await placedRolloverEntries(
      tx,
      entries.map((e) => e.source_bill_id),
    );
    return keepAnswer({ created: toInsert.length, placed });
  });
}

/**
 * The paid account expense that pays a bill (`is_bill_payment`); the account must be the context's. Its id
 * is billing's: a repeated call (a retry after a lost answer) returns the payment already written.
 */
export async function createBillPayment(em: EntityManager, ctx: CallerContext, input: BillPaymentInput) {
  return em.transactional(async (tx) => {
    const [existing] = input.payment_id ? await loadByIds(tx, [input.payment_id]) : [];
    if (existing) {
      if (!existing.is_bill_payment || existing.bill_id !== input.bill_id) throw notFound('Pagamento não encontrado');
      return keepAnswer(transactionView(existing));
    }
    if (!(await visibleAccountIds(tx, ctx, [input.account_id])).size) throw notFound('Conta não encontrada');
    const row = blankTransaction({
      id: input.payment_id ?? newId(),
      user_id: ctx.userId,
      profile_id: ctx.profileId,
      amount: input.amount,
      date: input.date,
      title: input.title,
      is_expense: true,
      type: 'FIXED',
      paid: true,
      paid_at: now().toISOString(),
      account_id: input.account_id,
      bill_id: input.bill_id,
      is_bill_payment: true,
    });
    await insertTransactions(tx, [row]);
    recordTransactionChanges(tx, ctx, 'created', [row]);
    // billing learns of the payment from this event, in this commit, and announces the bill paid (bill.paid)
    const [totals] = await billTotals(tx, ctx, [input.bill_id]);
    recordEvent(tx, 'bill.payment_recorded', contextRef(ctx), {
      bill_id: input.bill_id,
      payment: { transaction_id: row.id, amount: row.amount, date: row.date },
      totals: totals ?? null,
    });
    const [stored] = await loadByIds(tx, [row.id]);
    return keepAnswer(transactionView(stored));
  });
}

/**
 * A deleted card takes its entries with it (they vanish from every read and total). The payments of its bills
 * stay in their accounts as plain expenses: that money left the bank.
 */
export async function deleteCardTransactions(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  billIds: string[],
  calendarVersion = 0,
) {
  return em.transactional(async (tx) => {
    // a purchase billed before the deletion and written after it is refused (its calendar version is older)
    await lockCardCalendars(tx, [cardId], 'update');
    // an import onto the card finishes first (it holds this lock), then its entries go with the card
    await lockImportHolders(tx, ctx, [cardId]);
    await advanceCardCalendar(tx, cardId, calendarVersion);
    const ids = await liveCardTransactionIds(tx, ctx, cardId);
    const deleted = await softDelete(
      tx,
      ids.map((row) => row.id),
    );
    const payments = await livePaymentsOfBills(tx, ctx, billIds);
    const kept = await makePlainEntries(
      tx,
      payments.map((row) => row.id),
    );
    recordTransactionChanges(tx, ctx, 'deleted', deleted);
    recordTransactionChanges(tx, ctx, 'updated', kept);
    return keepAnswer({ deleted: deleted.length });
  });
}
