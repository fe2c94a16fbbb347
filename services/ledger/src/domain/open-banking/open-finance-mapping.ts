import { addMonthsClamped } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import type {
  ImportedCreditCard,
  ImportedInvestment,
  ImportedTransaction,
  OpenBankingImport,
} from '@finance/shared/contracts/ledger/open-banking';
import { normalizeMerchantName } from '../rules/normalize.ts';
import type { BankAccountTransaction, BankCardTransaction, BankSnapshot } from './bank-connector.ts';
import { decimalToCents } from './decimal-cents.ts';
import type { InvestmentFamily } from './institutions.ts';

/** completedAuthorisedPaymentType → the entry's status: still processing is PENDING, scheduled is FORECAST. */
export const STATUS_OF: Record<
  BankAccountTransaction['completedAuthorisedPaymentType'],
  ImportedTransaction['status']
> = {
  TRANSACAO_EFETIVADA: 'BOOKED',
  TRANSACAO_PROCESSANDO: 'PENDING',
  LANCAMENTO_FUTURO: 'FORECAST',
};

const ACCOUNT_SUBTYPE: Record<string, string> = {
  CONTA_DEPOSITO_A_VISTA: 'CHECKING_ACCOUNT',
  CONTA_POUPANCA: 'SAVINGS_ACCOUNT',
  CONTA_PAGAMENTO_PRE_PAGA: 'PREPAID_ACCOUNT',
};

/** The family as the yield report's investment types (treasury titles are fixed income). */
const INVESTMENT_TYPE: Record<InvestmentFamily, string> = {
  'bank-fixed-incomes': 'FIXED_INCOME',
  'credit-fixed-incomes': 'FIXED_INCOME',
  'treasure-titles': 'FIXED_INCOME',
  funds: 'MUTUAL_FUND',
  'variable-incomes': 'VARIABLE_INCOME',
};

const CNPJ = /^\d{14}$/;

/** Why a record of the institution could not be mapped (an amount the documents do not allow). */
export class UnmappableRecord extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnmappableRecord';
  }
}

function centsOf(amount: string, what: string): number {
  const cents = decimalToCents(amount);
  if (cents === null) throw new UnmappableRecord(`valor inválido em ${what}: ${JSON.stringify(amount).slice(0, 40)}`);
  return cents;
}

/** The calendar day of an instant in the context's time zone (docs/decisions.md §5: "today" is the context's). */
export const bookingDay = (dateTime: string, timeZone: string): string => {
  const instant = new Date(dateTime);
  if (Number.isNaN(instant.getTime())) throw new UnmappableRecord(`data inválida: ${dateTime.slice(0, 40)}`);
  return todayIn(timeZone, instant);
};

const title = (name: string, fallback: string) => (name.trim() || fallback).slice(0, 255);

function accountTransaction(
  accountId: string,
  tx: BankAccountTransaction,
  timeZone: string,
): ImportedTransaction | null {
  const amount = centsOf(tx.transactionAmount.amount, `transação ${tx.transactionId}`);
  if (amount <= 0) return null;
  const cnpj = tx.partieCnpjCpf && CNPJ.test(tx.partieCnpjCpf) ? tx.partieCnpjCpf : null;
  return {
    external_id: tx.transactionId,
    account_external_id: accountId,
    amount,
    date: bookingDay(tx.transactionDateTime, timeZone),
    is_expense: tx.creditDebitType === 'DEBITO',
    title: title(tx.transactionName, tx.type),
    merchant_name: cnpj ? title(tx.transactionName, tx.type) : null,
    merchant_cnpj: cnpj,
    operation_type: tx.type,
    status: STATUS_OF[tx.completedAuthorisedPaymentType],
  };
}

/**
 * The series of an installment: the card, the purchase (normalized name, installment amount, number of parts)
 * and the month of its first part, counted back from the bill this part was posted to, so every part of one
 * purchase names the same series whichever date the institution writes on each part.
 */
export function installmentSeriesKey(cardId: string, tx: BankCardTransaction, amount: number): string {
  const firstMonth = addMonthsClamped(tx.billPostDate.slice(0, 10), -((tx.chargeIdentificator ?? 1) - 1)).slice(0, 7);
  return `${cardId}:${normalizeMerchantName(tx.transactionName) ?? ''}:${amount}:${tx.chargeNumber}:${firstMonth}`.slice(
    0,
    200,
  );
}

function cardTransaction(
  cardId: string,
  tx: BankCardTransaction,
  billDueDate: string | null,
  timeZone: string,
): ImportedTransaction | null {
  // a bill's payment is the account's debit (imported there): on the card it would count twice
  if (tx.transactionType === 'PAGAMENTO') return null;
  const amount = centsOf(tx.brazilianAmount.amount, `transação ${tx.transactionId}`);
  if (amount <= 0) return null;
  const mapped: ImportedTransaction = {
    external_id: tx.transactionId,
    credit_card_external_id: cardId,
    amount,
    date: bookingDay(tx.transactionDateTime, timeZone),
    is_expense: tx.creditDebitType === 'DEBITO',
    title: title(tx.transactionName, tx.transactionType),
    merchant_name: title(tx.transactionName, tx.transactionType),
    operation_type: tx.transactionType,
    status: 'BOOKED',
  };
  if (tx.chargeNumber && tx.chargeNumber > 1 && tx.chargeIdentificator) {
    mapped.installment = {
      series_key: installmentSeriesKey(cardId, tx, amount),
      number: tx.chargeIdentificator,
      total: tx.chargeNumber,
    };
  }
  if (tx.amount.currency !== 'BRL') {
    mapped.original_amount = tx.amount.amount;
    mapped.original_currency = tx.amount.currency;
  }
  if (billDueDate) mapped.bill_due_date = billDueDate;
  return mapped;
}

/**
 * What one sync read, as the import payload the JSON import takes (docs/decisions.md §9): amounts in cents
 * from the decimal strings, `creditDebitType` as the direction, the booking day in the context's time zone,
 * the counterparty's CNPJ and the transaction type as merchant data, the status of processing and scheduled
 * entries, installments as one series, foreign purchases at their amount in reais with the original kept,
 * card entries with the bill the institution put them in, and the day's balance of every position.
 */
export function mapSnapshot(
  snapshot: BankSnapshot,
  input: { connectionId: string; institution: string; timeZone: string; today: string },
): OpenBankingImport {
  const accounts = snapshot.accounts.map((account) => ({
    external_id: account.accountId,
    name: `${account.brandName} ${account.number}`.slice(0, 100),
    type: 'PERSONAL_BANK' as const,
    subtype: ACCOUNT_SUBTYPE[account.type] ?? account.type,
    balance: centsOf(account.balance.amount, `saldo da conta ${account.accountId}`),
    logo: /^\d{3}$/.test(account.compeCode) ? account.compeCode : null,
  }));
  const transactions: ImportedTransaction[] = [];
  for (const account of snapshot.accounts) {
    for (const tx of account.transactions) {
      const mapped = accountTransaction(account.accountId, tx, input.timeZone);
      if (mapped) transactions.push(mapped);
    }
  }
  // a card needs an account of the connection: with none shared, its data waits for one
  const cardAccount = accounts[0]?.external_id;
  const cards: ImportedCreditCard[] = [];
  for (const card of cardAccount ? snapshot.cards : []) {
    const latestDue = card.bills
      .map((bill) => bill.dueDate)
      .sort()
      .at(-1);
    cards.push({
      external_id: card.creditCardAccountId,
      name: card.name.slice(0, 100),
      account_external_id: cardAccount as string,
      closing_day: null,
      due_day: latestDue ? Number(latestDue.slice(8, 10)) : 10,
      limit: card.limit ? centsOf(card.limit.amount, `limite do cartão ${card.creditCardAccountId}`) : 0,
    });
    const seen = new Set<string>();
    for (const bill of card.bills) {
      for (const tx of bill.transactions) {
        const mapped = cardTransaction(card.creditCardAccountId, tx, bill.dueDate, input.timeZone);
        if (mapped && !seen.has(mapped.external_id)) transactions.push(mapped);
        seen.add(tx.transactionId);
      }
    }
    for (const tx of card.open) {
      if (seen.has(tx.transactionId)) continue;
      const mapped = cardTransaction(card.creditCardAccountId, tx, null, input.timeZone);
      if (mapped) transactions.push(mapped);
      seen.add(tx.transactionId);
    }
  }
  const investments: ImportedInvestment[] = snapshot.investments.map((position) => ({
    investment_id: position.investmentId,
    name: position.name.slice(0, 255),
    bank_name: position.brandName.slice(0, 255),
    type: INVESTMENT_TYPE[position.family],
    subtype: position.kind.slice(0, 64),
    snapshots: [
      { date: input.today, balance_cents: centsOf(position.grossAmount.amount, `saldo de ${position.investmentId}`) },
    ],
  }));
  return {
    connection: { id: input.connectionId, institution: input.institution },
    accounts,
    credit_cards: cards,
    transactions,
    investments,
  };
}
