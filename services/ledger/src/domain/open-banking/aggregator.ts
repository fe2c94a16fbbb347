/** An aggregator's side of a connection (Pluggy): its items are our connections; one adapter per provider. */
export interface AggregatorConnector {
  /** The token Pluggy Connect (the front end's widget) opens with; the item it creates names `clientUserId`. */
  connectToken(input: { clientUserId: string; webhookUrl: string | null }): Promise<string>;
  /** The item as the aggregator reports it now (null when it does not know it). */
  item(itemId: string): Promise<AggregatorItem | null>;
  /**
   * What the item shares: accounts with their transactions, card bills, investments. With `onTransactions`, each
   * page of an account's transactions goes there as it is read (with the item's accounts, their bills read before)
   * and the accounts hold none: a long history is never held whole.
   */
  fetchSnapshot(
    itemId: string,
    from: string,
    onTransactions?: (
      account: AggregatorAccount,
      page: AggregatorTransaction[],
      accounts: readonly AggregatorAccount[],
    ) => Promise<void>,
  ): Promise<AggregatorSnapshot>;
  /** Deletes the item (the revocation): an unknown one is done. */
  deleteItem(itemId: string): Promise<void>;
}

export interface AggregatorItem {
  id: string;
  clientUserId: string | null;
  status: string;
  connectorName: string;
}

/** The aggregator's records the mapping reads (Pluggy's documented shapes, amounts as numbers in reais). */
export interface AggregatorSnapshot {
  accounts: Array<{
    id: string;
    type: 'BANK' | 'CREDIT';
    subtype: string;
    name: string;
    number: string;
    balance: number;
    /** The holder's CPF or CNPJ as the aggregator reports it. */
    ownerDocument: string | null;
    creditLimit: number | null;
    availableCreditLimit: number | null;
    transactions: Array<{
      id: string;
      date: Date;
      description: string;
      type: 'DEBIT' | 'CREDIT';
      amount: number;
      amountInAccountCurrency: number | null;
      currencyCode: string;
      status?: string;
      operationType: string | null;
      merchantCnpj: string | null;
      merchantName: string | null;
      installment: { number: number; total: number } | null;
      billId: string | null;
      /** The other party's CPF or CNPJ (a debit's receiver, a credit's payer). */
      counterpartyDocument: string | null;
    }>;
    bills: Array<{
      id: string;
      dueDate: Date;
      closingDate: Date | null;
      payments: Array<{ id: string; date: Date; amount: number }>;
    }>;
  }>;
  investments: Array<{ id: string; name: string; type: string; subtype: string | null; balance: number }>;
  institution: string;
}

export type AggregatorAccount = AggregatorSnapshot['accounts'][number];
export type AggregatorTransaction = AggregatorAccount['transactions'][number];
