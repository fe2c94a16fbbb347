import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { PIECE_BYTES } from '@finance/shared/http/received-file';
import type { EntityManager } from '@mikro-orm/postgresql';
import { accountBalanceOn } from '../../data-access/balance-on-day.ts';
import {
  type StatementFileRow,
  selectImportedFingerprint,
  selectStatementFileOfJob,
  updateStatementFound,
  updateStatementImported,
} from '../../data-access/statement-files.ts';
import { IMPORT_BATCH } from '../imports/import-batches.ts';
import { importEntries } from '../imports/import-entries.ts';
import type { PipelineEntry, PipelineOutcome } from '../imports/import-entry.ts';
import { backgroundJobState, updateBackgroundJob } from '../jobs/background-jobs.ts';
import { ImportRejected } from '../open-banking/import-payload.ts';
import { dropStatementBytes, statementText } from './file-store.ts';
import { SKIPPED_LISTED, type StatementFound, type StatementRefusal } from './import-statement.ts';
import {
  EntryKeys,
  type FileRow,
  pipelineEntry,
  type ReadOptions,
  readStatementFile,
  type StatementTarget,
} from './statement-entries.ts';
import { StatementRejected } from './statement-text.ts';

/** Progress the first reading (the file checked whole) goes up to; the pipeline's batches take the rest. */
const READ_PROGRESS = 20;

/** The pipeline's counts over the batches done, kept with the file so a resumed job goes on counting. */
interface Tally {
  created: number;
  updated: number;
  duplicates: number;
  categorized: number;
  reconciled: number;
  reconciliation_suggestions: number;
  /** The first `SKIPPED_LISTED` entries the pipeline left out (deleted by the user), and how many. */
  skipped: Array<{ line: number | null; reason: string }>;
  skipped_count: number;
}

const emptyTally = (): Tally => ({
  created: 0,
  updated: 0,
  duplicates: 0,
  categorized: 0,
  reconciled: 0,
  reconciliation_suggestions: 0,
  skipped: [],
  skipped_count: 0,
});

/** Notes a skipped line: counted, and listed while the list is short. */
function skip(
  list: { skipped: Array<{ line: number | null; reason: string }>; skipped_count: number },
  line: number | null,
  reason: string,
) {
  list.skipped_count++;
  if (list.skipped.length < SKIPPED_LISTED) list.skipped.push({ line, reason });
}

/**
 * The statement-file worker's use case: reads the job's stored file in two streaming passes, one piece of it in
 * memory at a time. The first checks it whole (a file that cannot be read fails the job naming its line, before
 * anything is written) and keeps what it found; the second hands its entries to the import pipeline in batches of
 * `IMPORT_BATCH`, recording after each how many went, so a job resumed after a crash goes on from there (keys
 * dedupe, so a batch done again creates nothing twice). A file whose same bytes were imported the same way into
 * the same account or card by a completed job is not read again: its entries are all duplicates. Null when the
 * job had already finished.
 */
export async function runStatementImport(
  em: EntityManager,
  ctx: CallerContext,
  jobId: string,
  billing: BillingLedgerClient,
): Promise<unknown> {
  const file = await selectStatementFileOfJob(em, ctx, jobId);
  if (!file) throw new ImportRejected('Arquivo do extrato não encontrado para esta tarefa');
  const state = await backgroundJobState(em, ctx, jobId);
  if (state === 'completed' || state === 'failed') {
    await dropStatementBytes(em, file.id);
    return null;
  }
  const progress = (value: number, linesRead: number) =>
    updateBackgroundJob(em, jobId, { state: 'active', progress: value, result: { lines_read: linesRead } });
  await progress(1, 0);
  const reading = file.reading;
  const target = { account_id: reading.account_id, credit_card_id: reading.credit_card_id } as StatementTarget;
  const options: ReadOptions = { format: reading.format, query: reading.query, timeZone: reading.time_zone };
  let found = file.found as StatementFound | null;
  let tally = (file.outcome as Tally | null) ?? emptyTally();
  let imported = file.imported;
  if (!found) {
    const earlier = await selectImportedFingerprint(em, ctx, file.fingerprint, file.id);
    found = (earlier?.found as StatementFound | undefined) ?? (await firstPass(em, file, options, progress));
    await updateStatementFound(em, file.id, found);
    if (earlier) {
      // the same file again: everything in it is there already
      tally = { ...emptyTally(), duplicates: found.entries };
      imported = found.entries;
      await updateStatementImported(em, file.id, imported, tally);
    }
  }
  if (imported < found.entries) {
    tally = await secondPass(em, ctx, billing, { file, found, tally, imported, target, options }, progress);
  }
  const balance = found.ledger_balance;
  const ledger = balance && target.account_id ? await accountBalanceOn(em, ctx, target.account_id, balance.date) : null;
  const result = {
    format: reading.format,
    lines: found.entries,
    created: tally.created,
    updated: tally.updated,
    duplicates: tally.duplicates,
    reconciled: tally.reconciled,
    reconciliation_suggestions: tally.reconciliation_suggestions,
    categorized: tally.categorized,
    skipped: [...found.skipped, ...tally.skipped]
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
      .slice(0, SKIPPED_LISTED),
    skipped_count: found.skipped_count + tally.skipped_count,
    ledger_balance:
      balance && ledger !== null
        ? { statement: balance.cents, ledger, as_of: balance.date, matches: balance.cents === ledger }
        : null,
  };
  await updateBackgroundJob(em, jobId, { state: 'completed', progress: 100, result, error: null });
  await dropStatementBytes(em, file.id);
  return result;
}

/** A statement import that will not be retried: its job failed with `message`, its file's bytes dropped. */
export async function failStatementImport(em: EntityManager, ctx: CallerContext, jobId: string, message: string) {
  await updateBackgroundJob(em, jobId, { state: 'failed', error: message });
  const file = await selectStatementFileOfJob(em, ctx, jobId);
  if (file) await dropStatementBytes(em, file.id);
}

/** The whole file checked, nothing written: its entries counted, its skipped lines and stated balance kept. */
async function firstPass(
  em: EntityManager,
  file: StatementFileRow,
  options: ReadOptions,
  progress: (value: number, linesRead: number) => Promise<void>,
): Promise<StatementFound> {
  const pieces = Math.max(1, Math.ceil(file.reading.bytes / PIECE_BYTES));
  const found: StatementFound = { lines: 0, entries: 0, skipped: [], skipped_count: 0, ledger_balance: null };
  let lastLine = 0;
  let reported = 0;
  const onRow = async (row: FileRow) => {
    if ('entry' in row) {
      found.entries++;
      lastLine = row.entry.line;
    } else {
      skip(found, row.skipped.line, row.skipped.reason);
      lastLine = row.skipped.line ?? lastLine;
    }
  };
  const onPiece = (seq: number) => {
    reported = seq;
  };
  const text = statementText(em, file.id, file.reading.encoding, onPiece);
  try {
    // the job shows how far the reading got, once a second
    const ticker = everySecond(() => progress((READ_PROGRESS * reported) / pieces, lastLine));
    try {
      const summary = await readStatementFile(text, options, onRow);
      found.lines = summary.lines;
      found.ledger_balance = summary.ledgerBalance;
    } finally {
      await ticker.stop();
    }
  } catch (err) {
    if (!(err instanceof StatementRejected)) throw err;
    const refusal: StatementRefusal = { refusal: { line: err.line, message: err.message } };
    await updateStatementFound(em, file.id, refusal);
    throw new ImportRejected(`Arquivo de extrato inválido: ${err.message}`);
  }
  await progress(READ_PROGRESS, found.lines);
  return found;
}

/** The file read again, its entries keyed in file order and handed to the pipeline in batches, from where a resumed job left off. */
async function secondPass(
  em: EntityManager,
  ctx: CallerContext,
  billing: BillingLedgerClient,
  job: {
    file: StatementFileRow;
    found: StatementFound;
    tally: Tally;
    imported: number;
    target: StatementTarget;
    options: ReadOptions;
  },
  progress: (value: number, linesRead: number) => Promise<void>,
): Promise<Tally> {
  const { file, found, target, options } = job;
  let tally = job.tally;
  const source = { namespace: `${options.format}:${target.account_id ?? target.credit_card_id}`, connectionId: null };
  const keys = new EntryKeys();
  let imported = job.imported;
  let index = 0;
  let batch: PipelineEntry[] = [];
  const importBatch = async (entries: PipelineEntry[]) => {
    let next = tally;
    // a fork per batch: what the pipeline loads does not pile up over the file; the count of entries done commits
    // with them, so a resumed job starts where the last commit left off
    await importEntries(em.fork(), ctx, billing, source, entries, async (tx, outcome) => {
      next = withOutcome(tally, outcome);
      await updateStatementImported(tx, file.id, imported + entries.length, next);
    });
    tally = next;
    imported += entries.length;
  };
  // the job shows how far the writing got, once a second
  const ticker = everySecond(() =>
    progress(READ_PROGRESS + ((100 - READ_PROGRESS - 1) * imported) / found.entries, found.lines),
  );
  // the next batch is read while the pipeline writes this one (one batch at a time in the pipeline, in file order)
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing;
    if (batch.length === 0) return;
    writing = importBatch(batch);
    // a failure surfaces at the next flush (or the last)
    writing.catch(() => undefined);
    batch = [];
  };
  await readStatementFile(statementText(em, file.id, file.reading.encoding), options, async (row) => {
    if (!('entry' in row)) return;
    // every entry is keyed, those a resumed job already handed over too: identical ones are numbered in file order
    const key = keys.next(row.entry);
    if (index++ < job.imported) return;
    batch.push(pipelineEntry(row.entry, key, options.format, target));
    if (batch.length >= IMPORT_BATCH) await flush();
  }).finally(ticker.stop);
  await flush();
  await writing;
  return tally;
}

/**
 * Runs `report` once a second until stopped; `stop` waits for a report under way, so none lands after the job's
 * final state (a late one would set a completed job back to active).
 */
function everySecond(report: () => Promise<void>) {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(report).catch(() => undefined);
  }, 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** The counts so far with one batch's outcome added. */
function withOutcome(tally: Tally, outcome: PipelineOutcome): Tally {
  const next = {
    ...tally,
    created: tally.created + outcome.created.length,
    updated: tally.updated + outcome.updated.length,
    duplicates: tally.duplicates + outcome.duplicates,
    categorized: tally.categorized + outcome.categorized,
    reconciled: tally.reconciled + outcome.reconciled,
    reconciliation_suggestions: tally.reconciliation_suggestions + outcome.reconciliation_suggestions,
    skipped: [...tally.skipped],
  };
  for (const entry of outcome.skipped) skip(next, entry.line, entry.reason);
  return next;
}
