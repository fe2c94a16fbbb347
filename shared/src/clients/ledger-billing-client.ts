import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';
import { fetchTimeZone } from './ledger-context-client.ts';

/** A ledger transaction row as the bill endpoints show it, with its related objects (docs/decisions.md §8). */
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
  /** Signed net (expenses − credits) of the bill's recurrence occurrences. */
  recurring: number;
}

/** A card's bill periods as billing holds them after a closing-day change, under one calendar version. */
export interface CardCalendarInput {
  credit_card_id: string;
  calendar_version: number;
  /** The first month whose bill may have changed; purchases dated before its period are history. */
  first_month: string;
  /** Each bill's period: purchases dated from `open_date` (inclusive) to `closing_date` (exclusive). */
  bills: Array<{ bill_id: string; open_date: string; closing_date: string }>;
}

export interface PreviousBalanceEntry {
  source_bill_id: string;
  bill_id: string;
  credit_card_id: string;
  amount: number;
  date: string;
  billed_at: string;
  title: string;
  /** False for a credit (an overpaid bill's negative remainder); default true. */
  is_expense?: boolean;
}

/** Where the entry carrying a source bill's remainder lives (also when an earlier run wrote it). */
export interface PlacedPreviousBalance {
  source_bill_id: string;
  bill_id: string;
}

export interface BillPaymentInput {
  /** The payment's transaction id, chosen by billing: a repeated call with it writes nothing more. */
  /** Billing's id for the payment, so a repeated call returns it; omitted inside an idempotent request (its derived key replays the call). */
  payment_id?: string;
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

  /**
   * Moves the card's purchases to the bills of their dates under this calendar (a no-op for an older
   * version); `uncovered` lists the dates from the first period on that no listed bill holds.
   */
  async rebill(context: CallerContext, calendar: CardCalendarInput) {
    return this.http.post<{ moved: number; uncovered: string[] }>('/internal/v1/card-transactions/rebill', {
      context,
      body: calendar,
    });
  }

  async addPreviousBalances(
    context: CallerContext,
    entries: PreviousBalanceEntry[],
  ): Promise<{ created: number; placed: PlacedPreviousBalance[] }> {
    if (entries.length === 0) return { created: 0, placed: [] };
    return this.http.post<{ created: number; placed: PlacedPreviousBalance[] }>(
      '/internal/v1/card-transactions/previous-balances',
      { context, body: { entries } },
    );
  }

  async payBill(context: CallerContext, input: BillPaymentInput) {
    return this.http.post<Record<string, unknown>>('/internal/v1/bill-payments', { context, body: input });
  }

  /** Deletes the card's entries and the payments of its bills (card deletion). */
  async deleteCardTransactions(
    context: CallerContext,
    creditCardId: string,
    billIds: string[],
    calendarVersion: number,
  ) {
    return this.http.post<{ deleted: number }>('/internal/v1/card-transactions/delete-of-card', {
      context,
      body: { credit_card_id: creditCardId, bill_ids: billIds, calendar_version: calendarVersion },
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
