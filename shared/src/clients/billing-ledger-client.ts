import type { CallerContext } from '../context/signed-context.ts';
import {
  type AssignBillsResult,
  billingForLedgerRoutes,
  type ImportCardsResult,
  type ImportedCardInput,
  type LinkedCard,
} from '../contracts/internal/billing-for-ledger.ts';
import { lookupIn } from '../contracts/route.ts';
import type { InternalClient } from '../http/internal-client.ts';

const route = lookupIn(billingForLedgerRoutes);

/** The ledger's calls to billing: bill of each card purchase date, cards following an account, card imports. */
export class BillingLedgerClient {
  readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /**
   * The bill of each date (created as needed), in order, the bill due on each of `dueDates`, and the version of the card's calendar they were
   * assigned under (docs/architecture.md rule 9); 404 when the card is not the context's.
   */
  assign(
    context: CallerContext,
    creditCardId: string,
    dates: string[],
    dueDates: string[] = [],
  ): Promise<AssignBillsResult> {
    return this.http.send(route('assignBills'), {
      context,
      body: { credit_card_id: creditCardId, dates, due_dates: dueDates },
    });
  }

  /** Moves every live card of an account to another one; returns `{id, account_id}` of each moved card. */
  async moveCards(context: CallerContext, fromAccountId: string, toAccountId: string): Promise<LinkedCard[]> {
    const body: { moved: LinkedCard[] } = await this.http.send(route('moveAccountCards'), {
      context,
      body: { from_account_id: fromAccountId, to_account_id: toAccountId },
    });
    return body.moved;
  }

  /** Live cards of the context linked to an account. */
  async linkedCards(context: CallerContext, accountId: string): Promise<LinkedCard[]> {
    const body: { credit_cards: LinkedCard[] } = await this.http.send(route('listLinkedCards'), {
      context,
      query: { account_id: accountId },
    });
    return body.credit_cards;
  }

  /** Upserts the cards of an open-banking connection (none for a lookup) and lists every one of them in one call. */
  importCards(context: CallerContext, connectionId: string, cards: ImportedCardInput[]): Promise<ImportCardsResult> {
    return this.http.send(route('importCards'), { context, body: { connection_id: connectionId, cards } });
  }
}
