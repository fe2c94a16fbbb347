import { parseCalendarDate } from '@finance/shared/calendar';
import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PayBillBody } from '@finance/shared/contracts/billing/bills';
import { newId } from '@finance/shared/db/base-entity';
import { busy, conflict, invalidField, notFound } from '@finance/shared/errors/app-error';
import { servingIdempotentRequest } from '@finance/shared/http/idempotency';
import type { EntityManager } from '@mikro-orm/postgresql';
import { claimBillForPayment, findBill, releaseBills, reopenForRollover } from '../../data-access/bill-repository.ts';
import { findCard } from '../../data-access/card-repository.ts';
import { contextToday } from '../context-today.ts';
import { billBalance } from './bill-balance.ts';
import { overpaymentBound } from './rollover-rules.ts';
import { loadBill } from './show-bill.ts';

export const BILL_NOT_FOUND = 'Fatura não encontrada';
export const NOTHING_OWED = 'Fatura sem saldo a pagar';
export const PAYMENT_IN_PROGRESS = 'Já há um pagamento ou fechamento desta fatura em andamento; consulte a fatura';

/**
 * Pays a bill with one account expense in the ledger (`is_bill_payment`, the bill's id). Payments of one bill
 * are serialized: billing claims the bill under its row lock and commits, then reads the balance and writes
 * the payment in the ledger (no transaction or lock held during the calls), then releases the claim; a
 * payment or rollover arriving meanwhile is 409. `amount` defaults to what is owed (409 when that is ≤ 0);
 * an explicit amount may exceed it (the excess is a credit the rollover carries into the next bill) by at
 * most the card's limit (R$ 1.000.000,00 for an unlimited card), else 400.
 */
export async function payBill(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  billId: string,
  input: PayBillBody,
) {
  const bill = await findBill(em, ctx, billId, 'c');
  const card = bill && (await findCard(em, ctx, bill.creditCardId));
  if (!bill || !card) throw notFound(BILL_NOT_FOUND);
  const claim = await claimBillForPayment(em, bill.id);
  if (!claim.claimed && claim.reason === 'carried') {
    throw conflict(`O saldo desta fatura foi levado adiante e está na fatura ${claim.holder}; pague aquela fatura`);
  }
  if (!claim.claimed) throw busy(PAYMENT_IN_PROGRESS);
  let payment: Record<string, unknown>;
  // an idempotent request's retry replays the ledger call by its derived key, which needs the same body
  const paymentId = servingIdempotentRequest() ? undefined : newId();
  try {
    const [totals] = await ledger.totals(ctx, [bill.id]);
    const owed = billBalance(totals);
    if (input.amount === undefined && owed <= 0) throw conflict(NOTHING_OWED);
    const amount = input.amount ?? owed;
    const bound = overpaymentBound(card);
    if (amount - owed > bound) {
      throw invalidField(
        'amount',
        `O valor excede o saldo da fatura (${owed} centavos) em mais de ${bound} centavos, o maior crédito aceito neste cartão`,
      );
    }
    payment = await ledger.payBill(ctx, {
      payment_id: paymentId,
      bill_id: bill.id,
      account_id: input.account_id,
      amount,
      // an ISO 8601 date-time keeps the calendar day as written
      date: (input.date && parseCalendarDate(input.date)) || (await contextToday(ledger, ctx)),
      title: `Pagamento da fatura ${card.name}`,
    });
    // a bill the rollover found settled carries this payment's credit on at the next run
    await reopenForRollover(em, [bill.id]);
  } finally {
    await releaseBills(em, [bill.id]);
  }
  // the ledger's payment announces itself (`bill.payment_recorded`, in its commit); billing's consumer of it
  // announces the bill paid, so a process that dies after the ledger's commit loses nothing
  const { bill: view } = await loadBill(em, ledger, ctx, card, bill.referenceMonth);
  return { bill: view, payment };
}
