import type { CallerContext } from '../context/signed-context.ts';
import {
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
const contextRoute = lookupIn(ledgerForServicesRoutes);
const accountRoute = lookupIn(accountRoutes);

/** Billing's calls to the ledger's internal card endpoints: one call per bill read, never per row. */
export class LedgerBillingClient {
  readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /**
   * The live card transactions of `billIds` (bill payments excluded) as the bill shows them: whole records, with
   * account, category, subcategory, tags, `total`, `card` and the bill extras (`closingDate` gives the projected
   * date of rows not billed yet). They stay the UTF-8 JSON array the ledger wrote: billing passes its thousands of
   * rows on without decoding or parsing them.
   */
  billRows(
    context: CallerContext,
    creditCardId: string,
    billIds: string[],
    closingDate: string,
    card: Record<string, unknown>,
  ): Promise<Buffer> {
    return this.http.sendForBytes(route('searchCardTransactions'), {
      context,
      body: { credit_card_id: creditCardId, bill_ids: billIds, closing_date: closingDate, credit_card: card },
    });
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
