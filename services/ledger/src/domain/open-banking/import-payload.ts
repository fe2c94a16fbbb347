import { importBody, type OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { joiMessagesPt } from '@finance/shared/http/joi-messages';

/** The import failed for a reason the client can fix; the message goes to the job's `error` as is. */
export class ImportRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRejected';
  }
}

/** What a sync knows beside its payload, stored with it for the import job: what it left out, what it read whole. */
const SYNC = 'sync';
export interface SyncNotes {
  skipped: Array<{ record: string; reason: string }>;
  listed: Array<{ account_external_id: string; from: string; to: string }>;
  /** The sync's entries, staged page by page as they were read (`sync-stage.ts`), not in the payload. */
  staged?: { id: string; count: number };
}
const NO_NOTES: SyncNotes = { skipped: [], listed: [] };

/** A sync's payload as stored: the import, and its notes. */
export const withSyncNotes = (payload: OpenBankingImport, notes: SyncNotes) => ({
  ...payload,
  [SYNC]: {
    skipped: notes.skipped.slice(0, 1000),
    listed: notes.listed,
    ...(notes.staged ? { staged: notes.staged } : {}),
  },
});

/** A stored payload's sync notes (none for a JSON import), and the payload without them. */
export function splitSyncNotes(stored: unknown): { payload: unknown; notes: SyncNotes } {
  if (typeof stored !== 'object' || stored === null || !(SYNC in stored)) return { payload: stored, notes: NO_NOTES };
  const { [SYNC]: notes, ...payload } = stored as Record<string, unknown>;
  const { skipped, listed, staged } = (notes ?? {}) as Partial<SyncNotes>;
  return {
    payload,
    notes: {
      skipped: Array.isArray(skipped) ? skipped : [],
      listed: Array.isArray(listed) ? listed : [],
      ...(typeof staged?.id === 'string' && Number.isInteger(staged.count) ? { staged } : {}),
    },
  };
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
