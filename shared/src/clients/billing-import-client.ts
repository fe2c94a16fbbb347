import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';

export const BILLING_IMPORT_PATH = '/internal/v1/credit-cards/import';

/** One card of an open-banking import, its account already resolved to a ledger id. */
export interface ImportedCardInput {
  external_id: string;
  name: string;
  /** null when the card's account was deleted by the user: an existing card keeps its account, a new one is skipped. */
  account_id: string | null;
  closing_day: number | null;
  due_day: number;
  limit: number;
}

/** Every card of the connection after the upsert, deleted ones included, so references resolve. */
export interface ImportedCard {
  id: string;
  external_id: string;
  account_id: string;
  deleted: boolean;
}

export interface ImportCardsResult {
  created: number;
  updated: number;
  cards: ImportedCard[];
}

/** The ledger's import worker asks billing, which owns cards, to upsert them by external id. */
export class BillingImportClient {
  readonly http: InternalClient;

  constructor(http: InternalClient) {
    this.http = http;
  }

  /** Upserts (none for a lookup) and lists every card of the connection in one call. */
  async importCards(context: CallerContext, connectionId: string, cards: ImportedCardInput[]) {
    return this.http.post<ImportCardsResult>(BILLING_IMPORT_PATH, {
      context,
      body: { connection_id: connectionId, cards },
    });
  }
}
