import { addMonthsClamped, daysBetween } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import {
  type ImportedCreditCard,
  type ImportedInvestment,
  type ImportedTransaction,
  importedTransaction,
  type OpenBankingImport,
} from '@finance/shared/contracts/ledger/open-banking';
import { BILL_PAYMENT_WINDOW_DAYS, isPaymentLine } from '../imports/bill-payments.ts';
import { normalizeMerchantName } from '../rules/normalize.ts';
import type { BankAccountTransaction, BankCardTransaction, BankSnapshot, SkippedRecord } from './bank-connector.ts';
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

/**
 * Account entry types whose other party is a merchant (or an employer, a payee) rather than the institution
 * itself: only there is a counterparty's CNPJ the entry's merchant.
 */
const MERCHANT_TYPES = new Set([
  'PIX',
  'TED',
  'DOC',
  'TRANSFERENCIA_MESMA_INSTITUICAO',
  'BOLETO',
  'CONVENIO_ARRECADACAO',
  'FOLHA_PAGAMENTO',
  'CARTAO',
  'OUTROS',
]);

/** Card entry types and their direction: charges are expenses, refunds and cashback credits; OUTROS as the bank says. */
const CARD_CHARGES = new Set(['PAGAMENTO', 'TARIFA', 'OPERACOES_CREDITO_CONTRATADAS_CARTAO']);
const CARD_CREDITS = new Set(['ESTORNO', 'CASHBACK']);

/** The documents' "no date yet" (`billPostDate` of a purchase not on a bill). */
const DUMMY_DAY = '0001-01-01';

/** Why a record of the institution could not be mapped (an amount or a date the documents do not allow). */
export class UnmappableRecord extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnmappableRecord';
  }
}

/** A decimal amount as institutions send it (the documents' text, a decimal comma, a JSON number) in cents. */
function centsOf(amount: string | number, what: string): number {
  const text = typeof amount === 'number' ? (/e/i.test(String(amount)) ? '' : String(amount)) : amount.trim();
  const cents = decimalToCents(text.replace(',', '.'));
  if (cents === null) throw new UnmappableRecord(`valor inválido em ${what}: ${JSON.stringify(amount).slice(0, 40)}`);
  return cents;
}

const pad = (part: string) => part.padStart(2, '0');

/** A day as the documents' patterns allow it (`2024-3-5`) as `YYYY-MM-DD`; the dummy day is no day. */
export function documentDay(day: string): string | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(day.trim());
  if (!match) throw new UnmappableRecord(`data inválida: ${day.slice(0, 40)}`);
  const text = `${match[1]}-${pad(match[2])}-${pad(match[3])}`;
  return text === DUMMY_DAY ? null : text;
}

/** The calendar day of an instant in the context's time zone (docs/decisions.md §5: "today" is the context's). */
export const bookingDay = (dateTime: string, timeZone: string): string => {
  const text = dateTime.trim().replace(/^(\d{4})-(\d{1,2})-(\d{1,2})T/, (_, y, m, d) => `${y}-${pad(m)}-${pad(d)}T`);
  const instant = new Date(text);
  if (Number.isNaN(instant.getTime())) throw new UnmappableRecord(`data inválida: ${dateTime.slice(0, 40)}`);
  return todayIn(timeZone, instant);
};

const title = (name: string, fallback: string) => (name.trim() || fallback).slice(0, 255);
const digits = (document?: string) => {
  const text = (document ?? '').replace(/\D/g, '');
  return text.length === 11 || text.length === 14 ? text : null;
};

function accountTransaction(
  accountId: string,
  tx: BankAccountTransaction,
  timeZone: string,
): ImportedTransaction | string {
  const amount = centsOf(tx.transactionAmount.amount, `transação ${tx.transactionId}`);
  if (amount <= 0) return 'valor zero';
  const date = bookingDay(tx.transactionDateTime, timeZone);
  const status = STATUS_OF[tx.completedAuthorisedPaymentType];
  const document = digits(tx.partieCnpjCpf);
  const cnpj = document?.length === 14 && MERCHANT_TYPES.has(tx.type) ? document : null;
  return {
    external_id: tx.transactionId.trim(),
    account_external_id: accountId,
    amount,
    date,
    is_expense: tx.creditDebitType === 'DEBITO',
    title: title(tx.transactionName, tx.type),
    merchant_name: cnpj ? title(tx.transactionName, tx.type) : null,
    merchant_cnpj: cnpj,
    operation_type: tx.type.slice(0, 64),
    status,
    ...(document ? { counterparty_document: document } : {}),
  };
}

/**
 * The series of an installment: the card, the purchase (normalized name, installment amount, number of parts)
 * and the month of the bill its first part is due in, counted back from the bill this part is due in, so every
 * part of one purchase names the same series whichever date the institution writes on each part.
 */
export function installmentSeriesKey(cardId: string, tx: BankCardTransaction, amount: number, dueDate: string) {
  const firstDue = addMonthsClamped(dueDate, -((tx.chargeIdentificator ?? 1) - 1)).slice(0, 7);
  return `${cardId}:${normalizeMerchantName(tx.transactionName) ?? ''}:${amount}:${tx.chargeNumber}:${firstDue}`.slice(
    0,
    200,
  );
}

/** A card entry's amount in reais: `brazilianAmount`, or `amount` when that one is in reais and the other is zero. */
function cardCents(tx: BankCardTransaction) {
  const brazilian = centsOf(tx.brazilianAmount.amount, `transação ${tx.transactionId}`);
  return brazilian === 0 && tx.amount.currency === 'BRL'
    ? centsOf(tx.amount.amount, `transação ${tx.transactionId}`)
    : brazilian;
}

/**
 * The card's payment line ("PAGAMENTO RECEBIDO"): a credit without a payment type (a purchase has one: A_VISTA or
 * A_PRAZO) of type PAGAMENTO or OUTROS whose text says it pays the bill.
 */
const isCardPayment = (tx: BankCardTransaction) =>
  !tx.paymentType &&
  tx.creditDebitType === 'CREDITO' &&
  (tx.transactionType === 'PAGAMENTO' || tx.transactionType === 'OUTROS') &&
  isPaymentLine(tx.transactionName);

/** What a fee's or a credit operation's kind adds to its type (only theirs: an institution may fill them on any entry). */
const detailOf = (tx: BankCardTransaction) =>
  tx.transactionType === 'TARIFA'
    ? tx.feeType
    : tx.transactionType === 'OPERACOES_CREDITO_CONTRATADAS_CARTAO'
      ? tx.otherCreditsType
      : undefined;

function cardTransaction(
  cardId: string,
  tx: BankCardTransaction,
  dueDate: string | null,
  openDueDate: string,
  timeZone: string,
): ImportedTransaction | string {
  const amount = cardCents(tx);
  if (amount <= 0) return 'valor zero';
  const payment = isCardPayment(tx);
  const type = tx.transactionType;
  const isExpense = payment
    ? false
    : CARD_CHARGES.has(type) || (!CARD_CREDITS.has(type) && tx.creditDebitType === 'DEBITO');
  const detail = detailOf(tx);
  const mapped: ImportedTransaction = {
    external_id: tx.transactionId.trim(),
    credit_card_external_id: cardId,
    amount,
    date: bookingDay(tx.transactionDateTime, timeZone),
    is_expense: isExpense,
    title: title(tx.transactionName, type),
    merchant_name: payment ? null : title(tx.transactionName, type),
    operation_type: (detail ? `${type} ${detail}` : type).slice(0, 64),
    status: 'BOOKED',
    // said outright, so no text rule decides it again
    ...(isExpense ? {} : { bill_payment: payment }),
  };
  const parts = tx.chargeNumber ?? 0;
  const part = tx.chargeIdentificator ?? 0;
  if (!payment && parts > 1 && part >= 1 && part <= parts) {
    mapped.installment = {
      series_key: installmentSeriesKey(cardId, tx, amount, dueDate ?? openDueDate),
      number: part,
      total: parts,
    };
  }
  if (tx.amount.currency !== 'BRL' && centsOf(tx.amount.amount, `transação ${tx.transactionId}`) > 0) {
    mapped.original_amount = String(tx.amount.amount).trim().replace(',', '.');
    mapped.original_currency = tx.amount.currency;
  }
  if (dueDate) mapped.bill_due_date = dueDate;
  return mapped;
}

type Card = BankSnapshot['cards'][number];
type Bill = Card['bills'][number];

const signed = (tx: ImportedTransaction) => (tx.is_expense ? tx.amount : -tx.amount);

/**
 * A bill's finance charges (IOF, interest and fines for a late payment) as entries of the bill, when its entries
 * leave them out: the bill's total less what its entries hold is exactly their sum. Each is a cost of the bill.
 */
function financeCharges(cardId: string, bill: Bill, dueDate: string, entries: ImportedTransaction[]) {
  if (!bill.total || bill.financeCharges.length === 0) return [];
  try {
    const charges = bill.financeCharges.map((charge) => ({
      type: charge.type,
      cents: centsOf(charge.amount, `encargo da fatura ${bill.billId}`),
    }));
    const missing =
      centsOf(bill.total.amount, `total da fatura ${bill.billId}`) -
      entries.filter((tx) => tx.bill_payment !== true).reduce((sum, tx) => sum + signed(tx), 0);
    const charged = charges.reduce((sum, charge) => sum + charge.cents, 0);
    if (charged <= 0 || missing !== charged) return [];
    return charges
      .filter((charge) => charge.cents > 0)
      .map(
        (charge, index): ImportedTransaction => ({
          external_id: `${bill.billId}-encargo-${index + 1}`.slice(0, 200),
          credit_card_external_id: cardId,
          amount: charge.cents,
          date: dueDate,
          is_expense: true,
          title: `Encargo da fatura: ${charge.type}`.slice(0, 255),
          operation_type: `ENCARGO ${charge.type}`.slice(0, 64),
          status: 'BOOKED',
          bill_due_date: dueDate,
        }),
      );
  } catch {
    return [];
  }
}

/**
 * The closing day of a card from its bills: each bill's entries were put on it (`billPostDate`) at the latest on its
 * closing day; the most recent bill with such dates gives the day. Null when no bill has any.
 */
function closingDayOf(card: Card): number | null {
  for (const bill of [...card.bills].sort((a, b) => (a.dueDate < b.dueDate ? 1 : -1))) {
    const due = documentDayOrNull(bill.dueDate);
    const posted = bill.transactions
      .filter((tx) => !tx.chargeNumber || tx.chargeNumber <= 1)
      .map((tx) => documentDayOrNull(tx.billPostDate))
      .filter((day): day is string => day !== null && due !== null && day < due)
      .sort();
    if (posted.length > 0) return Number(posted[posted.length - 1].slice(8, 10));
  }
  return null;
}

function documentDayOrNull(day: string): string | null {
  try {
    return documentDay(day);
  } catch {
    return null;
  }
}

/** The payments the bank reports for a card's bills, in cents, each bill by its due date. */
function billPayments(card: Card, skipped: SkippedRecord[]) {
  return card.bills.flatMap((bill) => {
    const dueDate = documentDayOrNull(bill.dueDate);
    if (!dueDate) return [];
    const payments = bill.payments.flatMap((payment) => {
      try {
        const date = documentDay(payment.paymentDate);
        const amount = centsOf(payment.amount, `pagamento da fatura ${bill.billId}`);
        return date && amount > 0 ? [{ date, amount }] : [];
      } catch (err) {
        skipped.push({ record: `pagamento da fatura ${bill.billId}`, reason: (err as Error).message });
        return [];
      }
    });
    return [{ due_date: dueDate, payments }];
  });
}

/** Maps a record into `transactions`, or leaves it out into `skipped` with why (unmappable, or off the import's schema). */
function keeper(transactions: ImportedTransaction[], skipped: SkippedRecord[]) {
  return (record: string, map: () => ImportedTransaction | string) => {
    try {
      const mapped = map();
      if (typeof mapped === 'string') return skipped.push({ record, reason: mapped });
      const { error } = importedTransaction.validate(mapped);
      if (error) return skipped.push({ record, reason: `fora do padrão: ${error.message}`.slice(0, 300) });
      transactions.push(mapped);
    } catch (err) {
      if (!(err instanceof UnmappableRecord)) throw err;
      skipped.push({ record, reason: err.message });
    }
  };
}

const balanceCents = (account: { accountId: string; balance: { amount: string | number } | null }) =>
  account.balance ? centsOf(account.balance.amount, `saldo da conta ${account.accountId}`) : 0;

function mapAccountEntries(
  account: { accountId: string },
  page: readonly BankAccountTransaction[],
  timeZone: string,
  keep: ReturnType<typeof keeper>,
) {
  for (const tx of page) {
    keep(`lançamento ${tx.transactionId.trim()} da conta ${account.accountId}`, () =>
      accountTransaction(account.accountId, tx, timeZone),
    );
  }
}

/**
 * A page of an account's entries as `mapSnapshot` maps them, for a sync that stages them as they arrive: none of an
 * account whose balance cannot be read (`mapSnapshot` leaves that account out with its reason).
 */
export function mapAccountPage(
  account: { accountId: string; balance: { amount: string | number } | null },
  page: readonly BankAccountTransaction[],
  timeZone: string,
  skipped: SkippedRecord[],
): ImportedTransaction[] {
  try {
    balanceCents(account);
  } catch (err) {
    if (err instanceof UnmappableRecord) return [];
    throw err;
  }
  const transactions: ImportedTransaction[] = [];
  mapAccountEntries(account, page, timeZone, keeper(transactions, skipped));
  return transactions;
}

/**
 * One card as `mapSnapshot` maps it, for a sync that stages each card's entries once the card is read: its record
 * (the account it follows is set by `mapSnapshot`) and its entries, from its bills and its list.
 */
export function mapCard(
  card: BankSnapshot['cards'][number],
  input: { timeZone: string; today: string },
  skipped: SkippedRecord[],
): { card: ImportedCreditCard; transactions: ImportedTransaction[] } {
  const transactions: ImportedTransaction[] = [];
  const keep = keeper(transactions, skipped);
  const bills = billPayments(card, skipped);
  const latestDue = bills
    .map((bill) => bill.due_date)
    .sort()
    .at(-1);
  const imported: ImportedCreditCard = {
    external_id: card.creditCardAccountId,
    name: card.name.trim().slice(0, 100) || card.brandName.slice(0, 100),
    closing_day: closingDayOf(card),
    due_day: latestDue ? Number(latestDue.slice(8, 10)) : 10,
    limit: card.limit ? Math.max(0, centsOfOrZero(card.limit.amount)) : 0,
    available_limit: card.available ? centsOfOrZero(card.available.amount) : null,
    bills,
  };
  const reported = bills.flatMap((bill) => bill.payments);
  // the card's own line of a payment its bills report is that payment: the bills' payments carry it
  const paidAlready = (tx: BankCardTransaction) => {
    const amount = cardCents(tx);
    const date = bookingDay(tx.transactionDateTime, input.timeZone);
    return reported.some((p) => p.amount === amount && Math.abs(daysBetween(p.date, date)) <= BILL_PAYMENT_WINDOW_DAYS);
  };
  // an entry listed twice in one list (or in a bill and the card's list) is one entry; in two bills, two
  const listed = new Set<string>();
  const once = (tx: BankCardTransaction, bill: string | null) => {
    const identity = JSON.stringify([
      tx.transactionId.trim(),
      tx.brazilianAmount.amount,
      tx.transactionDateTime,
      tx.chargeIdentificator ?? null,
      tx.transactionName,
      bill,
    ]);
    if (listed.has(identity)) return false;
    listed.add(identity);
    return true;
  };
  const openDueDate = addMonthsClamped(latestDue ?? input.today, 1);
  const record = (tx: BankCardTransaction) =>
    `lançamento ${tx.transactionId.trim()} do cartão ${card.creditCardAccountId}`;
  const entry = (tx: BankCardTransaction, dueDate: string | null) => () =>
    isCardPayment(tx) && paidAlready(tx)
      ? 'pagamento da fatura, já informado nos pagamentos da fatura'
      : cardTransaction(card.creditCardAccountId, tx, dueDate, openDueDate, input.timeZone);
  for (const bill of card.bills) {
    const dueDate = documentDayOrNull(bill.dueDate);
    const before = transactions.length;
    for (const tx of bill.transactions) if (once(tx, bill.billId)) keep(record(tx), entry(tx, dueDate));
    if (dueDate) {
      for (const charge of financeCharges(card.creditCardAccountId, bill, dueDate, transactions.slice(before)))
        transactions.push(charge);
    }
  }
  for (const tx of card.open) if (once(tx, null)) keep(record(tx), entry(tx, null));
  return { card: imported, transactions };
}

export interface MappedSnapshot {
  payload: OpenBankingImport;
  /** Records left out by the connector or here, each with its reason. */
  skipped: SkippedRecord[];
  /** Per account, the days whose entries were all read: a pending or scheduled entry missing from them was dropped. */
  listed: ListedDays[];
}

/** The days of an account (the institution's id) whose every entry a sync read. */
export interface ListedDays {
  account_external_id: string;
  from: string;
  to: string;
}

/**
 * What one sync read, as the import payload the JSON import takes (docs/decisions.md §9): amounts in cents from
 * the decimal texts, the booking day in the context's time zone, account entries' direction from
 * `creditDebitType`, card entries' from their type (purchases, fees and credit operations are expenses, refunds and
 * cashback credits), the counterparty's document (the holder's own is their own money) and a merchant's CNPJ, the
 * status of processing and scheduled entries, installments as one series, foreign purchases at their amount in
 * reais with the original kept, card entries in the bill the institution put them in, the bills' payments (the
 * card's own payment line left to them), the card's closing day, limit and what is available of it, and the day's
 * balance of every position. Each entry that cannot be mapped is left out with its reason; the rest is imported.
 */
export function mapSnapshot(
  snapshot: BankSnapshot,
  input: {
    connectionId: string;
    institution: string;
    timeZone: string;
    today: string;
    holderDocument?: string;
    /** Cards a sync mapped (`mapCard`) as it read them, their entries staged: the snapshot's cards are the rest. */
    cards?: ImportedCreditCard[];
  },
): MappedSnapshot {
  const skipped: SkippedRecord[] = [...snapshot.skipped];
  const transactions: ImportedTransaction[] = [];
  const keep = keeper(transactions, skipped);

  const accounts = snapshot.accounts.flatMap((account) => {
    try {
      return [
        {
          external_id: account.accountId,
          name: `${account.brandName} ${account.number}`.trim().slice(0, 100),
          type: 'PERSONAL_BANK' as const,
          subtype: ACCOUNT_SUBTYPE[account.type] ?? account.type.slice(0, 100),
          ...(account.balance ? { balance: balanceCents(account) } : {}),
          logo: /^\d{3}$/.test(account.compeCode ?? '') ? account.compeCode : null,
        },
      ];
    } catch (err) {
      skipped.push({ record: `conta ${account.accountId}`, reason: (err as Error).message });
      return [];
    }
  });
  const importedAccounts = new Set(accounts.map((account) => account.external_id));
  for (const account of snapshot.accounts) {
    if (importedAccounts.has(account.accountId)) mapAccountEntries(account, account.transactions, input.timeZone, keep);
  }

  // a card follows the connection's first account, else (a consent of cards only) the context's default one
  const cardAccount = accounts[0]?.external_id;
  const read: ImportedCreditCard[] = [...(input.cards ?? [])];
  for (const card of snapshot.cards) {
    const mapped = mapCard(card, input, skipped);
    read.push(mapped.card);
    transactions.push(...mapped.transactions);
  }
  const cards = cardAccount ? read.map((card) => ({ ...card, account_external_id: cardAccount })) : read;

  const investments: ImportedInvestment[] = snapshot.investments.flatMap((position) => {
    try {
      return [
        {
          investment_id: position.investmentId,
          name: position.name.trim().slice(0, 255) || position.kind,
          bank_name: position.brandName.slice(0, 255),
          type: INVESTMENT_TYPE[position.family],
          subtype: position.kind.slice(0, 64),
          snapshots: [
            {
              date: input.today,
              balance_cents: centsOf(position.grossAmount.amount, `saldo de ${position.investmentId}`),
            },
          ],
        },
      ];
    } catch (err) {
      skipped.push({ record: `investimento ${position.investmentId}`, reason: (err as Error).message });
      return [];
    }
  });
  return {
    payload: {
      connection: {
        id: input.connectionId,
        institution: input.institution,
        ...(input.holderDocument ? { holder_document: input.holderDocument } : {}),
      },
      accounts,
      credit_cards: cards,
      transactions,
      investments,
    },
    skipped,
    listed: snapshot.accounts.flatMap((account) =>
      account.read && importedAccounts.has(account.accountId)
        ? [{ account_external_id: account.accountId, ...account.read }]
        : [],
    ),
  };
}

function centsOfOrZero(amount: string | number): number {
  try {
    return centsOf(amount, 'limite');
  } catch {
    return 0;
  }
}
