import type { PluggyClient, Transaction } from 'pluggy-sdk';
import type {
  AggregatorConnector,
  AggregatorSnapshot,
  AggregatorTransaction,
} from '../../domain/open-banking/aggregator.ts';
import { BankError } from '../../domain/open-banking/bank-connector.ts';

/** Bills of a card account asked back this far (Pluggy lists them by account). */
const PAGE_SIZE = 500;

/**
 * Pluggy through its official SDK (`pluggy-sdk`): Connect tokens for the front end, items as connections,
 * accounts, transactions (cursor pages), credit-card bills and investments, `deleteItem` as the revocation.
 * The SDK reads its base URL from `PLUGGY_API_URL` in the environment when a client is made: the ledger sets
 * it from its own configuration first.
 */
export function pluggyConnector(options: {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
}): AggregatorConnector {
  let client: PluggyClient | undefined;
  // loaded on first use: the SDK and its HTTP client are ≈25 MB a process that no deployment without Pluggy pays
  const api = async () => {
    if (!client) {
      process.env.PLUGGY_API_URL = options.apiUrl;
      const { PluggyClient } = await import('pluggy-sdk');
      client = new PluggyClient({ clientId: options.clientId, clientSecret: options.clientSecret });
    }
    return client;
  };
  const failure = (err: unknown): BankError => {
    if (err instanceof BankError) return err;
    const status =
      (err as { code?: number; statusCode?: number })?.code ?? (err as { statusCode?: number })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return new BankError('refused', `Pluggy recusou a chamada (${status})`, status);
    const name = (err as Error)?.name;
    if (name === 'TimeoutError') return new BankError('timeout', 'Pluggy não respondeu a tempo');
    return new BankError('unavailable', 'Pluggy indisponível no momento');
  };
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw failure(err);
    }
  };
  return {
    async connectToken({ clientUserId, webhookUrl }) {
      const { accessToken } = await call(async () =>
        (await api()).createConnectToken(undefined, { clientUserId, ...(webhookUrl ? { webhookUrl } : {}) }),
      );
      return accessToken;
    },
    async item(itemId) {
      try {
        const item = await (await api()).fetchItem(itemId);
        return {
          id: item.id,
          clientUserId: item.clientUserId,
          status: item.status,
          connectorName: item.connector.name,
        };
      } catch (err) {
        const error = failure(err);
        if (error.kind === 'refused' && error.status === 404) return null;
        throw error;
      }
    },
    async fetchSnapshot(itemId, from, onTransactions): Promise<AggregatorSnapshot> {
      // Pluggy's calls only: what the sink throws (an entry the import refuses, its stage's write) is its own
      const pluggy = await call(api);
      const item = await call(() => pluggy.fetchItem(itemId));
      const accounts: AggregatorSnapshot['accounts'] = [];
      for (const account of (await call(() => pluggy.fetchAccounts(itemId))).results) {
        const bills =
          account.type === 'CREDIT'
            ? (await call(() => pluggy.fetchCreditCardBills(account.id, { pageSize: PAGE_SIZE }))).results
            : [];
        accounts.push({
          id: account.id,
          type: account.type,
          subtype: account.subtype,
          name: account.marketingName ?? account.name,
          number: account.number,
          balance: account.balance,
          ownerDocument: account.taxNumber ?? null,
          creditLimit: account.creditData?.creditLimit ?? null,
          availableCreditLimit: account.creditData?.availableCreditLimit ?? null,
          bills: bills.map((bill) => ({
            id: bill.id,
            dueDate: new Date(bill.dueDate),
            closingDate: bill.billClosingDate ? new Date(bill.billClosingDate) : null,
            payments: (bill.payments ?? []).map((payment) => ({
              id: payment.id,
              date: new Date(payment.paymentDate),
              amount: payment.amount,
            })),
          })),
          transactions: [],
        });
      }
      for (const account of accounts) {
        // the cursor pages of /v2/transactions, one held at a time
        let after: string | undefined;
        do {
          const cursor = after;
          const page = await call(() =>
            pluggy.fetchTransactionsCursor(account.id, { dateFrom: from, ...(cursor ? { after: cursor } : {}) }),
          );
          const transactions = page.results.map(transactionOf);
          if (onTransactions) await onTransactions(account, transactions, accounts);
          else account.transactions.push(...transactions);
          after = page.next ? (new URL(page.next, options.apiUrl).searchParams.get('after') ?? undefined) : undefined;
        } while (after);
      }
      const investments = (
        await call(() => pluggy.fetchInvestments(itemId, undefined, { pageSize: PAGE_SIZE }))
      ).results.map((position) => ({
        id: position.id,
        name: position.name,
        type: position.type,
        subtype: position.subtype,
        balance: position.balance,
      }));
      return { accounts, investments, institution: item.connector.name };
    },
    async deleteItem(itemId) {
      try {
        await (await api()).deleteItem(itemId);
      } catch (err) {
        const error = failure(err);
        if (error.kind === 'refused' && error.status === 404) return;
        throw error;
      }
    },
  };
}

/** A Pluggy transaction as the mapping reads it. */
function transactionOf(tx: Transaction): AggregatorTransaction {
  return {
    id: tx.id,
    date: new Date(tx.date),
    description: tx.description,
    type: tx.type,
    amount: tx.amount,
    amountInAccountCurrency: tx.amountInAccountCurrency,
    currencyCode: tx.currencyCode,
    status: tx.status,
    operationType: tx.operationType,
    merchantCnpj: tx.merchant?.cnpj ?? tx.paymentData?.receiver?.documentNumber?.value ?? null,
    merchantName: tx.merchant?.businessName ?? tx.merchant?.name ?? null,
    installment:
      tx.creditCardMetadata?.installmentNumber && tx.creditCardMetadata.totalInstallments
        ? { number: tx.creditCardMetadata.installmentNumber, total: tx.creditCardMetadata.totalInstallments }
        : null,
    billId: tx.creditCardMetadata?.billId ?? null,
    counterpartyDocument:
      (tx.type === 'DEBIT' ? tx.paymentData?.receiver : tx.paymentData?.payer)?.documentNumber?.value ?? null,
  };
}
