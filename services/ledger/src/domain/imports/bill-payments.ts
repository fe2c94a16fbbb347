import { type CalendarDate, daysBetween } from '@finance/shared/calendar';
import { normalizeMerchantName } from '../rules/normalize.ts';
import { closestPairs, type Edge } from './closest-pairs.ts';

/**
 * The bill-payment rule (docs/decisions.md §9): a payment the bank reports for a card bill (Open Finance's bill
 * `payments`, Pluggy's bill payments, a card statement's payment line) and the account debit that made it are one
 * movement: the debit becomes that bill's payment (`is_bill_payment`, `bill_id`) and counts once. They pair on the
 * same amount, dated at most this many days apart, whichever arrived first and from whichever source.
 */
export const BILL_PAYMENT_WINDOW_DAYS = 5;

const PAYMENT_LINE = /^(pagamento|pagto|pgto|pag)\b|\bpagamento (recebido|efetuado|da fatura|de fatura|fatura)\b/;
const REVERSAL = /\b(estorno|cancelamento|devolucao)\b/;
const NAMES_A_BILL = /\b(fatura|cartao|card|credito)\b/;

/** A card credit whose text says it is the bill's payment ("Pagamento recebido", "PGTO FATURA"), not a refund. */
export function isPaymentLine(title: string): boolean {
  const text = normalizeMerchantName(title) ?? '';
  return PAYMENT_LINE.test(text) && !REVERSAL.test(text);
}

/** An account debit whose text names a card bill: preferred among equal candidates. */
export const namesABill = (title: string): boolean => NAMES_A_BILL.test(normalizeMerchantName(title) ?? '');

/** A payment the bank reported for a bill. */
export interface ReportedPayment {
  amount: number;
  date: CalendarDate;
  bill_id: string;
}

/** An account debit that may be a bill's payment. */
export interface PayingDebit {
  id: string;
  amount: number;
  date: CalendarDate;
  title: string;
  /** Already a bill's payment (one made here with `pay`, or matched before): only that bill's report joins it. */
  bill_id: string | null;
}

/**
 * Reported payment index → the debit that made it: same amount, at most `BILL_PAYMENT_WINDOW_DAYS` apart; the
 * closest day first, then a debit already recorded as that bill's payment, then one whose text names a bill.
 */
export function pairBillPayments(payments: readonly ReportedPayment[], debits: readonly PayingDebit[]) {
  const edges: Edge[] = [];
  payments.forEach((payment, index) => {
    for (const debit of debits) {
      if (debit.amount !== payment.amount) continue;
      if (debit.bill_id !== null && debit.bill_id !== payment.bill_id) continue;
      const days = Math.abs(daysBetween(debit.date, payment.date));
      if (days > BILL_PAYMENT_WINDOW_DAYS) continue;
      const preference = (debit.bill_id === payment.bill_id ? 0 : 2) + (namesABill(debit.title) ? 0 : 1);
      edges.push({ index, id: debit.id, gap: days * 4 + preference });
    }
  });
  return closestPairs(edges);
}
