import type { Institution, InvestmentFamily } from './institutions.ts';

/** The bank side of open banking: one adapter per provider implements it (Open Finance Brasil first). */
export interface BankConnector {
  /** Creates the data-sharing consent (client_credentials, `POST /consents`). */
  createConsent(institution: Institution, input: { cpf: string; expiresAt: string }): Promise<CreatedConsent>;
  /** A pushed authorization request for the consent; what the callback needs to finish it is returned, to be kept secret. */
  startAuthorization(
    institution: Institution,
    input: { consentId: string; redirectUri: string },
  ): Promise<StartedAuthorization>;
  /** Exchanges the authorization response the customer's browser brought back; returns the refresh token. */
  completeAuthorization(institution: Institution, input: CompleteAuthorization): Promise<{ refreshToken: string }>;
  /** The consent as the institution reports it now. */
  consentStatus(institution: Institution, consentId: string): Promise<ConsentState>;
  /** Everything the consent shares, read with a token from the refresh token. */
  fetchSnapshot(institution: Institution, input: SnapshotRequest): Promise<BankSnapshot>;
  /** Revokes the consent at the institution (`DELETE /consents/{consentId}`); an already rejected one is done. */
  revokeConsent(institution: Institution, consentId: string): Promise<void>;
}

export interface CreatedConsent {
  consentId: string;
  expiresAt: string | null;
}

export interface StartedAuthorization {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface CompleteAuthorization {
  /** The callback URL as the browser requested it (query included). */
  callbackUrl: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface ConsentState {
  status: 'AWAITING_AUTHORISATION' | 'AUTHORISED' | 'REJECTED';
  rejectionCode: string | null;
  expiresAt: string | null;
}

export interface SnapshotRequest {
  consentId: string;
  refreshToken: string;
  /** First day of the transactions to read (12 months back on the first sync). */
  from: string;
  /** Today at the institution (UTC day). */
  to: string;
  /** Per account (the institution's id): the oldest day of an entry still pending or scheduled, read again until it settles. */
  openSince?: Record<string, string>;
  /**
   * Each page of an account's entries as it is read, with the account (its balance read before them): when given,
   * the snapshot's accounts hold no entries and a long history is never held whole.
   */
  onAccountEntries?: (
    account: { accountId: string; balance: Money | null },
    page: BankAccountTransaction[],
  ) => Promise<void>;
  /**
   * Each card once read whole (its bills with their entries, and its list): when given, the snapshot holds no card,
   * so a sync holds one card's year at a time.
   */
  onCardRead?: (card: BankSnapshot['cards'][number]) => Promise<void>;
}

/** An amount as institutions send it: the documents' decimal text, sometimes with a comma, or a JSON number. */
type Money = { amount: string | number; currency: string };

/** A record of the institution's left out of a sync, with why. */
export interface SkippedRecord {
  record: string;
  reason: string;
}

/** The documents' records the mapping reads, as the institution sent them (only the fields used). */
export interface BankAccountTransaction {
  transactionId: string;
  completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA' | 'LANCAMENTO_FUTURO' | 'TRANSACAO_PROCESSANDO';
  creditDebitType: 'CREDITO' | 'DEBITO';
  transactionName: string;
  type: string;
  transactionAmount: Money;
  transactionDateTime: string;
  partieCnpjCpf?: string;
  partiePersonType?: string;
}

export interface BankCardTransaction {
  transactionId: string;
  transactionName: string;
  billId?: string;
  creditDebitType: 'CREDITO' | 'DEBITO';
  transactionType: string;
  paymentType?: string;
  feeType?: string;
  otherCreditsType?: string;
  chargeIdentificator?: number;
  chargeNumber?: number;
  brazilianAmount: Money;
  amount: Money;
  transactionDateTime: string;
  billPostDate: string;
  payeeMCC?: number;
}

export interface BankSnapshot {
  accounts: Array<{
    accountId: string;
    type: string;
    compeCode: string;
    number: string;
    brandName: string;
    /** Null when the institution's balance could not be read (left out with its reason). */
    balance: Money | null;
    transactions: BankAccountTransaction[];
    /** The days whose entries were all read (null when a list was left out): what is not among them left. */
    read: { from: string; to: string } | null;
  }>;
  cards: Array<{
    creditCardAccountId: string;
    name: string;
    brandName: string;
    /** The card's total limit and what is available of it, as the institution's limits say. */
    limit: Money | null;
    available: Money | null;
    bills: Array<{
      billId: string;
      dueDate: string;
      /** `billTotalAmount`, when the institution gives it. */
      total: Money | null;
      payments: Array<{ paymentDate: string; amount: string | number }>;
      financeCharges: Array<{ type: string; amount: string | number }>;
      transactions: BankCardTransaction[];
    }>;
    /** Card transactions of no bill read (the open period). */
    open: BankCardTransaction[];
  }>;
  investments: Array<{
    family: InvestmentFamily;
    investmentId: string;
    name: string;
    kind: string;
    brandName: string;
    grossAmount: Money;
  }>;
  /** Records left out, each with its reason (the rest was read). */
  skipped: SkippedRecord[];
}

/**
 * A call to the institution failed: `timeout` (no answer in time), `invalid` (an answer the documents do not
 * allow), `unavailable` (429 or 5xx still after the retries), `refused` (a 4xx, or a grant it no longer honours),
 * `incomplete` (a list longer than any institution serves: never imported as if it were whole).
 */
export type BankErrorKind = 'timeout' | 'invalid' | 'unavailable' | 'refused' | 'incomplete';
export class BankError extends Error {
  readonly kind: BankErrorKind;
  readonly status: number | null;
  /** How long the institution asked to be left alone (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  constructor(kind: BankErrorKind, message: string, status: number | null = null) {
    super(message);
    this.name = 'BankError';
    this.kind = kind;
    this.status = status;
  }
}
