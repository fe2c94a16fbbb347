import { todayIn } from '@finance/shared/clock';
import type { ImportedTransaction, OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import type { AggregatorAccount, AggregatorSnapshot, AggregatorTransaction } from './aggregator.ts';
import { decimalToCents } from './decimal-cents.ts';
import { UnmappableRecord } from './open-finance-mapping.ts';

/**
 * Pluggy's amounts are JSON numbers in reais: their shortest decimal text (what `String` gives, never past 2
 * places for money the API reports) becomes cents on the digits, as for Open Finance's strings.
 */
export function reaisToCents(amount: number, what: string): number {
  const text = Number.isFinite(amount) ? String(Math.abs(amount)) : '';
  const cents = /e/i.test(text) ? null : decimalToCents(text);
  if (cents === null) throw new UnmappableRecord(`valor inválido em ${what}: ${String(amount).slice(0, 40)}`);
  return amount < 0 ? -cents : cents;
}

const CNPJ = /^\d{14}$/;
const day = (instant: Date) => instant.toISOString().slice(0, 10);
/** A CPF or CNPJ's digits, or null when it is neither. */
const document = (text: string | null) => {
  const digits = (text ?? '').replace(/\D/g, '');
  return digits.length === 11 || digits.length === 14 ? digits : null;
};

/**
 * A page of an account's transactions as `mapPluggySnapshot` maps them (a sync stages them as they arrive): none of
 * a card when the item has no bank account to hang it on.
 */
export function mapPluggyTransactions(
  accounts: readonly AggregatorAccount[],
  account: AggregatorAccount,
  page: readonly AggregatorTransaction[],
  timeZone: string,
): ImportedTransaction[] {
  const isCard = account.type === 'CREDIT';
  if (isCard && !accounts.some((candidate) => candidate.type === 'BANK')) return [];
  const dueDates = new Map(account.bills.map((bill) => [bill.id, bill.dueDate.toISOString().slice(0, 10)]));
  const transactions: ImportedTransaction[] = [];
  for (const tx of page) {
    const signed = reaisToCents(tx.amountInAccountCurrency ?? tx.amount, `transação ${tx.id}`);
    if (signed === 0) continue;
    const cnpj = tx.merchantCnpj?.replace(/\D/g, '') ?? '';
    const mapped: ImportedTransaction = {
      external_id: tx.id,
      ...(isCard ? { credit_card_external_id: account.id } : { account_external_id: account.id }),
      amount: Math.abs(signed),
      date: todayIn(timeZone, tx.date),
      // a card's purchase is a positive DEBIT; an account's debit is negative
      is_expense: tx.type === 'DEBIT',
      title: (tx.description.trim() || 'Transação').slice(0, 255),
      merchant_name: tx.merchantName?.slice(0, 255) ?? null,
      merchant_cnpj: CNPJ.test(cnpj) ? cnpj : null,
      operation_type: tx.operationType?.slice(0, 64) ?? null,
      status: tx.status === 'PENDING' ? 'PENDING' : 'BOOKED',
    };
    const counterparty = document(tx.counterpartyDocument);
    if (counterparty) mapped.counterparty_document = counterparty;
    if (tx.installment && tx.installment.total > 1) {
      mapped.installment = {
        series_key:
          `${account.id}:${tx.description.trim().toLowerCase()}:${Math.abs(signed)}:${tx.installment.total}`.slice(
            0,
            200,
          ),
        number: tx.installment.number,
        total: tx.installment.total,
      };
    }
    if (tx.currencyCode !== 'BRL' && tx.amountInAccountCurrency !== null) {
      mapped.original_amount = String(Math.abs(tx.amount));
      mapped.original_currency = tx.currencyCode;
    }
    const due = tx.billId ? dueDates.get(tx.billId) : undefined;
    if (due) mapped.bill_due_date = due;
    transactions.push(mapped);
  }
  return transactions;
}

/**
 * A Pluggy item's sync as the import payload (the same rules as Open Finance, docs/open-banking.md): cents on
 * the digits, `type` DEBIT/CREDIT as the direction (and a card's positive amount as a purchase), the booking day
 * in the context's time zone, the merchant's CNPJ, PENDING entries, installments as one series, purchases abroad
 * at their amount in reais with the original kept, card entries with their bill, the day's balance of positions.
 */
export function mapPluggySnapshot(
  snapshot: AggregatorSnapshot,
  input: { connectionId: string; timeZone: string; today: string },
): OpenBankingImport {
  const bank = snapshot.accounts.filter((account) => account.type === 'BANK');
  const cardAccount = bank[0]?.id;
  const transactions = snapshot.accounts.flatMap((account) =>
    mapPluggyTransactions(snapshot.accounts, account, account.transactions, input.timeZone),
  );
  const holder = document(bank[0]?.ownerDocument ?? snapshot.accounts[0]?.ownerDocument ?? null);
  return {
    connection: {
      id: input.connectionId,
      institution: snapshot.institution,
      ...(holder ? { holder_document: holder } : {}),
    },
    accounts: bank.map((account) => ({
      external_id: account.id,
      name: `${snapshot.institution} ${account.number}`.slice(0, 100),
      type: 'PERSONAL_BANK' as const,
      subtype: account.subtype,
      balance: reaisToCents(account.balance, `saldo da conta ${account.id}`),
      logo: null,
    })),
    credit_cards: snapshot.accounts
      .filter((account) => account.type === 'CREDIT' && cardAccount)
      .map((account) => {
        const latest = [...account.bills].sort((a, b) => a.dueDate.getTime() - b.dueDate.getTime()).at(-1);
        return {
          external_id: account.id,
          name: account.name.slice(0, 100),
          account_external_id: cardAccount as string,
          closing_day: latest?.closingDate ? Number(day(latest.closingDate).slice(8, 10)) : null,
          due_day: latest ? Number(day(latest.dueDate).slice(8, 10)) : 10,
          limit: account.creditLimit === null ? 0 : reaisToCents(account.creditLimit, `limite de ${account.id}`),
          available_limit:
            account.availableCreditLimit === null
              ? null
              : reaisToCents(account.availableCreditLimit, `limite disponível de ${account.id}`),
          // Pluggy's bill payments: each a payment of its bill, joined with the account debit that made it
          bills: account.bills.map((bill) => ({
            due_date: day(bill.dueDate),
            payments: bill.payments
              .map((payment) => ({
                external_id: payment.id,
                date: todayIn(input.timeZone, payment.date),
                amount: Math.abs(reaisToCents(payment.amount, `pagamento da fatura ${bill.id}`)),
              }))
              .filter((payment) => payment.amount > 0),
          })),
        };
      }),
    transactions,
    investments: snapshot.investments.map((position) => ({
      investment_id: position.id,
      name: position.name.slice(0, 255),
      bank_name: snapshot.institution.slice(0, 255),
      type: position.type.slice(0, 64),
      subtype: (position.subtype ?? position.type).slice(0, 64),
      snapshots: [{ date: input.today, balance_cents: reaisToCents(position.balance, `saldo de ${position.id}`) }],
    })),
  };
}
