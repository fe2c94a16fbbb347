import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';
import { fetchTimeZone } from './ledger-context-client.ts';

/** A ledger transaction row as the bill endpoints show it, with its related objects (PRODUCT.md §8). */
export type CardTransaction = Record<string, unknown> & {
  id: string;
  amount: number;
  date: string;
  is_expense: boolean;
  bill_id: string | null;
  installment_number: number | null;
  installments: number;
  category_id: string | null;
  operation_type: string | null;
  is_bill_payment: boolean;
  is_previous_balance: boolean;
};

/** Sums of one bill as the ledger sees them (cents). */
export interface BillTotals {
  bill_id: string;
  purchases: number;
  credits: number;
  payments: number;
  costs: number;
  count: number;
}

export interface BillMove {
  transaction_ids: string[];
  bill_id: string;
  billed_at: string;
}

export interface PreviousBalanceEntry {
  source_bill_id: string;
  bill_id: string;
  credit_card_id: string;
  amount: number;
  date: string;
  billed_at: string;
  title: string;
}

export interface BillPaymentInput {
  bill_id: string;
  account_id: string;
  amount: number;
  date: string;
  title: string;
}

/** Billing's calls to the ledger's internal card endpoints: one call per bill read, never per row. */
export class LedgerBillingClient {
  readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /**
   * In one call: the live card transactions of `billIds` (bill payments excluded), expanded with account,
   * category, subcategory, tags and `total`, the totals of every bill in `totalsBillIds`, and the
   * context's time zone (its today decides the bill's status).
   */
  async billContents(context: CallerContext, creditCardId: string, billIds: string[], totalsBillIds: string[]) {
    return this.http.post<{ transactions: CardTransaction[]; totals: BillTotals[]; time_zone: string }>(
      '/internal/v1/card-transactions/search',
      { context, body: { credit_card_id: creditCardId, bill_ids: billIds, totals_bill_ids: totalsBillIds } },
    );
  }

  /** The IANA zone of the context's "today" (live from ledger). */
  timeZone(context: CallerContext): Promise<string> {
    return fetchTimeZone(this.http, context);
  }

  /** Totals per bill (card entries and bill payments). */
  async totals(context: CallerContext, billIds: string[]): Promise<BillTotals[]> {
    if (billIds.length === 0) return [];
    const body = await this.http.post<{ totals: BillTotals[] }>('/internal/v1/card-transactions/totals', {
      context,
      body: { bill_ids: billIds },
    });
    return body.totals;
  }

  /** Card transactions with their dates, to re-assign after a closing-day change. */
  async datesOfCard(context: CallerContext, creditCardId: string, from: string | null) {
    const body = await this.http.post<{ transactions: Array<{ id: string; date: string; bill_id: string | null }> }>(
      '/internal/v1/card-transactions/dates',
      { context, body: { credit_card_id: creditCardId, from } },
    );
    return body.transactions;
  }

  async reassign(context: CallerContext, creditCardId: string, moves: BillMove[]): Promise<number> {
    if (moves.length === 0) return 0;
    const body = await this.http.post<{ moved: number }>('/internal/v1/card-transactions/reassign', {
      context,
      body: { credit_card_id: creditCardId, moves },
    });
    return body.moved;
  }

  async addPreviousBalances(context: CallerContext, entries: PreviousBalanceEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const body = await this.http.post<{ created: number }>('/internal/v1/card-transactions/previous-balances', {
      context,
      body: { entries },
    });
    return body.created;
  }

  async payBill(context: CallerContext, input: BillPaymentInput) {
    return this.http.post<Record<string, unknown>>('/internal/v1/bill-payments', { context, body: input });
  }

  /** Deletes the card's entries and the payments of its bills (card deletion). */
  async deleteCardTransactions(context: CallerContext, creditCardId: string, billIds: string[]) {
    return this.http.post<{ deleted: number }>('/internal/v1/card-transactions/delete-of-card', {
      context,
      body: { credit_card_id: creditCardId, bill_ids: billIds },
    });
  }

  async accountExists(context: CallerContext, accountId: string): Promise<boolean> {
    try {
      await this.http.get(`/v1/accounts/${accountId}`, { context });
      return true;
    } catch (err) {
      if ((err as { status?: number }).status === 404) return false;
      throw err;
    }
  }
}
