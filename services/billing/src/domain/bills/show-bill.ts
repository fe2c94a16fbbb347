import { type CalendarDate, startOfMonth } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import { todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillMonthQuery, BillTransactionsQuery } from '@finance/shared/contracts/billing/bills';
import type { CardTransaction } from '@finance/shared/contracts/internal/ledger-for-billing';
import { notFound } from '@finance/shared/errors/app-error';
import { JsonBytes } from '@finance/shared/http/service-routes';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsOfCards, byMonth } from '../../data-access/bill-repository.ts';
import { findCard } from '../../data-access/card-repository.ts';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';
import { cardView } from '../cards/card-view.ts';
import { heldByCard } from '../cards/owed-by-card.ts';
import { contextToday } from '../context-today.ts';
import { CARD_NOT_FOUND } from './assign-bills.ts';
import { openDateOf } from './bill-calendar.ts';
import { billView } from './bill-view.ts';
import { ensureBills } from './ensure-bills.ts';

const CLOSING = Buffer.from('}');

/**
 * The bill of a month, and `rows()`: its transactions as the UTF-8 JSON array the ledger writes, whole records
 * with the card's record in each. Two statements when the bill exists (the card's and its bills'), two ledger
 * calls side by side (the bills' totals and the context's time zone, which the bill and the card's record need),
 * and `rows()` one more, whatever the number of transactions.
 */
export async function loadBill(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  card: CreditCard,
  month: CalendarDate,
) {
  // the month's bill usually exists: one read, and a write transaction only to create it
  let cardBills = await billsOfCards(em, [card.id]);
  if (!cardBills.some((row) => row.referenceMonth === month)) {
    await em.transactional((tx) => ensureBills(tx, card, [month]));
    cardBills = await billsOfCards(em, [card.id]);
  }
  const bill = cardBills.find((row) => row.referenceMonth === month)!;
  const stored = byMonth(cardBills);
  const unrolled = cardBills.filter((row) => !row.rolledOverAt).map((row) => row.id);
  const [totals, timeZone] = await Promise.all([
    ledger.totals(ctx, [...new Set([...unrolled, bill.id])]),
    ledger.timeZone(ctx),
  ]);
  const today = todayIn(timeZone);
  return {
    bill: billView(
      bill,
      openDateOf(card, stored, month),
      totals.find((total) => total.bill_id === bill.id),
      today,
    ),
    rows: (): Promise<Buffer> =>
      ledger.billRows(
        ctx,
        card.id,
        [bill.id],
        bill.closingDate,
        cardView(card, heldByCard(card, cardBills, totals, today)),
      ),
  };
}

async function cardOf(em: EntityManager, ctx: CallerContext, cardId: string) {
  const card = await findCard(em, ctx, cardId);
  if (!card) throw notFound(CARD_NOT_FOUND);
  return card;
}

export async function showBillByCard(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cardId: string,
  query: BillMonthQuery,
) {
  const card = await cardOf(em, ctx, cardId);
  const month = startOfMonth(query.date ?? (await contextToday(ledger, ctx)));
  const { bill, rows } = await loadBill(em, ledger, ctx, card, month);
  // the rows pass on as the bytes they came in: thousands of them are neither parsed nor serialized again, and
  // their megabytes are not copied into one more buffer (the three pieces leave in one corked write)
  return new JsonBytes([Buffer.from(`{"bill":${JSON.stringify(bill)},"transactions":`), await rows(), CLOSING]);
}

const dayOf = (value: unknown) => String(value).slice(0, 10);

export async function listBillTransactions(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cardId: string,
  query: BillTransactionsQuery,
) {
  const card = await cardOf(em, ctx, cardId);
  const month = startOfMonth(query.date ?? (await contextToday(ledger, ctx)));
  const { rows } = await loadBill(em, ledger, ctx, card, month);
  const transactions: CardTransaction[] = JSON.parse((await rows()).toString('utf8'));
  const categories = [...(query.category_ids ?? []), ...(query['category_ids[]'] ?? [])].map((id) => id.toLowerCase());
  const cents = query.amount === undefined ? undefined : Math.round(query.amount * 100);
  return {
    transactions: transactions.filter(
      (t) =>
        (query.start_date === undefined || dayOf(t.date) >= query.start_date) &&
        (query.end_date === undefined || dayOf(t.date) <= query.end_date) &&
        (query.is_expense === undefined || t.is_expense === query.is_expense) &&
        (categories.length === 0 || categories.includes(String(t.category_id).toLowerCase())) &&
        (cents === undefined || t.amount === cents),
    ),
  };
}
