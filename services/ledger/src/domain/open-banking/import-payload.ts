import { importBody, type OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { joiMessagesPt } from '@finance/shared/http/joi-messages';

/** The import failed for a reason the client can fix; the message goes to the job's `error` as is. */
export class ImportRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRejected';
  }
}

/** What a sync left out, stored beside its payload for the import job's result. */
const SKIPPED = 'sync_skipped';
export interface StoredSkipped {
  record: string;
  reason: string;
}

/** A sync's payload as stored: the import, and the records the sync left out. */
export const withSkipped = (payload: OpenBankingImport, skipped: StoredSkipped[]) => ({
  ...payload,
  [SKIPPED]: skipped.slice(0, 1000),
});

/** The records a stored sync payload says were left out (none for a JSON import), and the payload without them. */
export function splitSkipped(stored: unknown): { payload: unknown; skipped: StoredSkipped[] } {
  if (typeof stored !== 'object' || stored === null || !(SKIPPED in stored)) return { payload: stored, skipped: [] };
  const { [SKIPPED]: skipped, ...payload } = stored as Record<string, unknown>;
  return { payload, skipped: Array.isArray(skipped) ? (skipped as StoredSkipped[]) : [] };
}

/** The worker checks the stored payload again with the public schema: a tampered or stale row is poisoned. */
export function parseStoredPayload(payload: unknown): OpenBankingImport {
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
  return value;
}

/** `YYYY-MM-DD` of an input date: the calendar date as written (docs/decisions.md §5). */
export const calendarDay = (date: string): string => date.slice(0, 10);

/** Empty strings from banks mean "none". */
export const orNull = (value: string | null | undefined): string | null => (value ? value : null);
