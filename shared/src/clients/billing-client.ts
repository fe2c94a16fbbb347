import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';

export interface BillAssignment {
  date: string;
  bill_id: string;
  /** The bill's closing date, `YYYY-MM-DD`. */
  billed_at: string;
}

export const BILLING_PATHS = {
  assign: '/internal/v1/bills/assign',
  moveCards: '/internal/v1/credit-cards/move',
  linkedCards: '/internal/v1/credit-cards/linked',
} as const;

/** The ledger's calls to billing: bill of each card purchase date, and cards following an account. */
export class BillingClient {
  readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /**
   * The bill of each date (created as needed), in order, and the version of the card's calendar they were
   * assigned under (docs/architecture.md rule 9); 404 when the card is not the context's.
   */
  async assign(context: CallerContext, creditCardId: string, dates: string[]) {
    return this.http.post<{
      card: { id: string; account_id: string; name: string; calendar_version: number };
      assignments: BillAssignment[];
    }>(BILLING_PATHS.assign, { context, body: { credit_card_id: creditCardId, dates } });
  }

  /** Moves every live card of an account to another one; returns `{id, account_id}` of each moved card. */
  async moveCards(context: CallerContext, fromAccountId: string, toAccountId: string) {
    const body = await this.http.post<{ moved: Array<{ id: string; account_id: string }> }>(BILLING_PATHS.moveCards, {
      context,
      body: { from_account_id: fromAccountId, to_account_id: toAccountId },
    });
    return body.moved;
  }

  /** Live cards of the context linked to an account. */
  async linkedCards(context: CallerContext, accountId: string) {
    const body = await this.http.get<{ credit_cards: Array<{ id: string; account_id: string }> }>(
      BILLING_PATHS.linkedCards,
      { context, query: { account_id: accountId } },
    );
    return body.credit_cards;
  }
}
