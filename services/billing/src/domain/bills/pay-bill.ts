import { parseCalendarDate } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { conflict, notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findBill } from '../../data-access/bill-repository.ts';
import { findCard } from '../../data-access/card-repository.ts';
import { contextToday } from '../context-today.ts';
import { loadBill } from './show-bill.ts';

export const BILL_NOT_FOUND = 'Fatura não encontrada';

/** Creates the paying account expense in the ledger (`is_bill_payment`, the bill's id); amount defaults to the balance. */
export async function payBill(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  billId: string,
  input: { account_id: string; amount?: number; date?: string },
) {
  const bill = await findBill(em, contextSql(ctx, 'c'), billId);
  const card = bill && (await findCard(em, ctx, bill.creditCardId));
  if (!bill || !card) throw notFound(BILL_NOT_FOUND);
  if (bill.carriedToBillId) {
    throw conflict(
      `O saldo desta fatura foi levado para a fatura seguinte (${bill.carriedToBillId}); pague aquela fatura`,
    );
  }
  const [totals] = await ledger.totals(ctx, [bill.id]);
  const balance = totals ? totals.purchases - totals.credits - totals.payments : 0;
  const amount = input.amount ?? balance;
  if (amount <= 0) throw conflict('Fatura sem saldo a pagar');
  const payment = await ledger.payBill(ctx, {
    bill_id: bill.id,
    account_id: input.account_id,
    amount,
    // an ISO 8601 date-time keeps the calendar day as written (PRODUCT.md §5)
    date: (input.date && parseCalendarDate(input.date)) || (await contextToday(ledger, ctx)),
    title: `Pagamento da fatura ${card.name}`,
  });
  const { bill: view } = await loadBill(em, ledger, ctx, card, bill.referenceMonth);
  return { bill: view, payment };
}
