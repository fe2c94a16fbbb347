import type { CalendarDate } from '@finance/shared/calendar';
import type { ImportedInstallment, ImportStatus } from '@finance/shared/contracts/ledger/open-banking';

/**
 * One entry a source hands to the import pipeline (docs/decisions.md §9), its account or card already resolved to
 * the ledger's id. Every source (an Open Finance connection, the JSON import, an OFX or CSV file) builds these.
 */
export interface PipelineEntry {
  /** The source's id of the entry, unique within what the source sends at once. */
  key: string;
  account_id: string | null;
  credit_card_id: string | null;
  status: ImportStatus;
  amount: number;
  date: CalendarDate;
  is_expense: boolean;
  title: string;
  description: string | null;
  merchant_name: string | null;
  merchant_cnpj: string | null;
  merchant_cnae: string | null;
  operation_type: string | null;
  logo_url: string | null;
  installment: ImportedInstallment | null;
  original_amount: string | null;
  original_currency: string | null;
  /** Card entries: the due date of the bill the institution names. */
  bill_due_date: CalendarDate | null;
  /**
   * Card entries: the bank reports this as a payment of the card's bill (Open Finance's bill `payments`, Pluggy's),
   * to be joined with the account debit that made it; false: it is not. Unsaid, a card credit whose text says so is.
   */
  bill_payment?: boolean;
  /** The other party's CPF or CNPJ (digits), when the source names it: the holder's own means their own money. */
  counterparty_document?: string | null;
  /** The entry's line in a statement file (for the report), else null. */
  line: number | null;
}

/**
 * Where entries come from: `namespace` scopes the source's ids (`connection:<ledger connection id>`,
 * `ofx:<account or card id>`, `csv:<account or card id>`); `connectionId` marks entries of a connection.
 */
export interface ImportSource {
  namespace: string;
  connectionId: string | null;
  /** The holder's CPF or CNPJ (digits) where the source knows it: a counterparty with it is the holder themself. */
  holderDocuments?: string[];
  /**
   * Days of accounts or cards whose every entry the source handed over (a sync's complete read): a pending or
   * scheduled entry of the source there that did not arrive was dropped by the bank and is removed.
   */
  listed?: Array<{ holder_id: string; from: string; to: string }>;
  /** Every entry of the import, when it is written in batches: what `listed` is checked against (else the batch). */
  arrived?: Array<{ holder_id: string; key: string }>;
}

/** An entry the pipeline did not write, with why (in Portuguese, for the client). */
export interface SkippedEntry {
  line: number | null;
  key: string;
  reason: string;
}

/** What the pipeline did with what a source handed it. */
export interface PipelineOutcome {
  created: string[];
  updated: string[];
  /** Already there (by the source's id, or by the matching rule from another source), nothing to change. */
  duplicates: number;
  skipped: SkippedEntry[];
  categorized: number;
  /** Unpaid manual forecasts reconciled automatically (`auto_reconcile_enabled`). */
  reconciled: number;
  /** Pending or scheduled entries of the source the bank no longer lists (`listed`), removed. */
  removed: string[];
  /** Forecast pairs left for the user to accept (`GET /v1/reconciliation/suggestions`) when it is off. */
  reconciliation_suggestions: number;
}

/** The outcome of importing nothing. */
export const emptyOutcome = (): PipelineOutcome => ({
  created: [],
  updated: [],
  duplicates: 0,
  skipped: [],
  categorized: 0,
  reconciled: 0,
  reconciliation_suggestions: 0,
  removed: [],
});

export const SKIPPED_DELETED = 'lançamento excluído pelo usuário; uma nova importação não o recria';
/** Entries whose account or card was deleted before the import wrote them (docs/decisions.md §9). */
export const SKIPPED_ACCOUNT_DELETED = 'conta excluída antes da importação; seus lançamentos não são importados';
export const SKIPPED_CARD_DELETED = 'cartão excluído antes da importação; seus lançamentos não são importados';

/** The source of a connection's entries (the JSON import and the Open Finance connector share it). */
export const connectionSource = (connectionId: string, holderDocuments: string[] = []): ImportSource => ({
  namespace: `connection:${connectionId}`,
  connectionId,
  holderDocuments,
});

/** A positive decimal as stored: no leading zeros, at least two decimals (`"12.3"` → `"12.30"`, `"007"` → `"7.00"`). */
export function decimalText(value: string): string {
  const [whole, fraction = ''] = value.split('.');
  const digits = whole.replace(/^0+(?=\d)/, '');
  return `${digits}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}
