import { importBody } from '@finance/shared/contracts/ledger/open-banking';
import { joiMessagesPt } from '@finance/shared/http/joi-messages';

export interface ImportedAccountInput {
  external_id: string;
  name: string;
  type: string;
  subtype: string | null;
  balance: number;
  logo?: string | null;
}

export interface ImportedCardPayload {
  external_id: string;
  name: string;
  account_external_id: string;
  closing_day?: number | null;
  due_day: number;
  limit: number;
}

export interface ImportedTransactionInput {
  external_id: string;
  account_external_id?: string;
  credit_card_external_id?: string;
  amount: number;
  date: string;
  is_expense: boolean;
  title: string;
  description?: string | null;
  merchant_name?: string | null;
  merchant_cnpj?: string | null;
  merchant_cnae?: string | null;
  operation_type?: string | null;
  logo_url?: string | null;
}

export interface ImportedInvestmentInput {
  investment_id: string;
  name: string;
  bank_name: string;
  type: string;
  subtype: string;
  snapshots: Array<{ date: string; balance_cents: number }>;
}

/** The body of POST /v1/open-banking/imports after validation (docs/decisions.md §9). */
export interface ImportPayload {
  connection: { id: string; institution: string };
  accounts: ImportedAccountInput[];
  credit_cards: ImportedCardPayload[];
  transactions: ImportedTransactionInput[];
  investments: ImportedInvestmentInput[];
}

/** The import failed for a reason the client can fix; the message goes to the job's `error` as is. */
export class ImportRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRejected';
  }
}

/** The worker checks the stored payload again with the public schema: a tampered or stale row is poisoned. */
export function parseStoredPayload(payload: unknown): ImportPayload {
  const { value, error } = importBody.validate(payload, {
    abortEarly: false,
    convert: true,
    messages: joiMessagesPt,
    errors: { wrap: { label: false } },
  });
  if (error) {
    const details = error.details
      .slice(0, 5)
      .map((d) => `${d.path.join('.')}: ${d.message}`)
      .join('; ');
    throw new ImportRejected(`Importação inválida: ${details}`);
  }
  return value as ImportPayload;
}

/** `YYYY-MM-DD` of an input date: the calendar date as written (docs/decisions.md §5). */
export const calendarDay = (date: string): string => date.slice(0, 10);

/** Empty strings from banks mean "none". */
export const orNull = (value: string | null | undefined): string | null => (value ? value : null);
