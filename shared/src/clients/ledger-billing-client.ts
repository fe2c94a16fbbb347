import type { CallerContext } from '../context/signed-context.ts';
import {
  type BillContents,
  type BillPaymentInput,
  type BillTotals,
  type CardCalendarInput,
  type CardTransactionDate,
  ledgerForBillingRoutes,
  type PlacedPreviousBalance,
  type PreviousBalanceEntry,
} from '../contracts/internal/ledger-for-billing.ts';
import { ledgerForServicesRoutes } from '../contracts/internal/ledger-for-services.ts';
import { accountRoutes } from '../contracts/ledger/accounts.ts';
import { lookupIn } from '../contracts/route.ts';
import type { InternalClient } from '../http/internal-client.ts';

const route = lookupIn(ledgerForBillingRoutes);
const ROWS_KEY = ',"transactions":';
const CLOSING_BRACE = 0x7d;
const contextRoute = lookupIn(ledgerForServicesRoutes);
const accountRoute = lookupIn(accountRoutes);

/** Billing's calls to the ledger's internal card endpoints: one call per bill read, never per row. */
export class LedgerBillingClient {
  readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /**
   * In one call: the live card transactions of `billIds` (bill payments excluded), expanded with account,
   * category, subcategory, tags, `total` and the bill extras but `credit_card` (`closingDate` gives the
   * projected date of rows not billed yet), the totals of every bill in `totalsBillIds`, and the context's time
   * zone (its today decides the bill's status). The rows stay the UTF-8 JSON they came in (`transactionsJson`,
   * an array): billing adds the card to each and passes them on without decoding or parsing thousands of rows.
   */
  async billContents(
    context: CallerContext,
    creditCardId: string,
    billIds: string[],
    totalsBillIds: string[],
    closingDate: string,
  ): Promise<{ totals: BillTotals[]; time_zone: string; transactionsJson: Buffer }> {
    const bytes = await this.http.sendForBytes(route('searchCardTransactions'), {
      context,
      body: {
        credit_card_id: creditCardId,
        bill_ids: billIds,
        totals_bill_ids: totalsBillIds,
        closing_date: closingDate,
      },
    });
    // `transactions` is the answer's last key (BillContents); the first `,"transactions":` outside a string is
    // that key, and no string holds one: JSON escapes every quote inside a string
    const at = bytes.indexOf(ROWS_KEY);
    if (at < 0 || bytes[bytes.length - 1] !== CLOSING_BRACE)
      throw new Error('searchCardTransactions: unexpected answer');
    const head: Omit<BillContents, 'transactions'> = JSON.parse(`${bytes.toString('utf8', 0, at)}}`);
    return {
      totals: head.totals,
      time_zone: head.time_zone,
      transactionsJson: bytes.subarray(at + ROWS_KEY.length, bytes.length - 1),
    };
  }

  /** The IANA zone of the context's "today" (live from ledger). */
  async timeZone(context: CallerContext): Promise<string> {
    const body: { time_zone: string } = await this.http.send(contextRoute('getContextTimeZone'), { context });
    return body.time_zone;
  }

  /** Totals per bill (card entries and bill payments). */
  async totals(context: CallerContext, billIds: string[]): Promise<BillTotals[]> {
    if (billIds.length === 0) return [];
    const body: { totals: BillTotals[] } = await this.http.send(route('cardBillTotals'), {
      context,
      body: { bill_ids: billIds },
    });
    return body.totals;
  }

  /** Card transactions with their dates, to re-assign after a closing-day change. */
  async datesOfCard(context: CallerContext, creditCardId: string, from: string | null): Promise<CardTransactionDate[]> {
    const body: { transactions: CardTransactionDate[] } = await this.http.send(route('cardTransactionDates'), {
      context,
      body: { credit_card_id: creditCardId, from },
    });
    return body.transactions;
  }

  /**
   * Moves the card's purchases to the bills of their dates under this calendar (a no-op for an older
   * version); `uncovered` lists the dates from the first period on that no listed bill holds.
   */
  rebill(context: CallerContext, calendar: CardCalendarInput): Promise<{ moved: number; uncovered: string[] }> {
    return this.http.send(route('rebillCard'), { context, body: calendar });
  }

  async addPreviousBalances(
    context: CallerContext,
    entries: PreviousBalanceEntry[],
  ): Promise<{ created: number; placed: PlacedPreviousBalance[] }> {
    if (entries.length === 0) return { created: 0, placed: [] };
    return this.http.send(route('addPreviousBalances'), { context, body: { entries } });
  }

  payBill(context: CallerContext, input: BillPaymentInput): Promise<Record<string, unknown>> {
    return this.http.send(route('createBillPayment'), { context, body: input });
  }

  /** Deletes the card's entries and the payments of its bills (card deletion). */
  deleteCardTransactions(
    context: CallerContext,
    creditCardId: string,
    billIds: string[],
    calendarVersion: number,
  ): Promise<{ deleted: number }> {
    return this.http.send(route('deleteCardTransactions'), {
      context,
      body: { credit_card_id: creditCardId, bill_ids: billIds, calendar_version: calendarVersion },
    });
  }

  async accountExists(context: CallerContext, accountId: string): Promise<boolean> {
    try {
      await this.http.send(accountRoute('getAccount'), { context, params: { id: accountId } });
      return true;
    } catch (err) {
      if ((err as { status?: number }).status === 404) return false;
      throw err;
    }
  }
}
