import { createHash } from 'node:crypto';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { StatementQuery } from '@finance/shared/contracts/ledger/statements';
import { contextRef } from '@finance/shared/db/context-scope';
import { KEY_ANSWER_LOST } from '@finance/shared/db/idempotency-records';
import { AppError, conflict, notFound } from '@finance/shared/errors/app-error';
import { keepRecoveryPoint } from '@finance/shared/http/kept-answer';
import type { ReceivedFile } from '@finance/shared/http/received-file';
import { Reply } from '@finance/shared/http/service-routes';
import { QUEUES, type StatementFileJob } from '@finance/shared/queue/catalogue';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findAccount } from '../../data-access/account-repository.ts';
import {
  claimStatementFile,
  deleteStatementJob,
  type StatementReading,
  selectStatementFileOfJob,
} from '../../data-access/statement-files.ts';
import { requireCard } from '../card-entries/card-rows.ts';
import { createBackgroundJob, waitForBackgroundJob } from '../jobs/background-jobs.ts';
import { IMPORT_ANSWER_WAIT_MS } from '../open-banking/start-import.ts';
import { contextTimeZone } from '../preferences/personal-config.ts';
import { csvLayoutOf, formatOf, type StatementTarget } from './statement-entries.ts';
import { StatementDecoder, StatementRejected } from './statement-text.ts';

export const STATEMENT_KIND = 'STATEMENT_IMPORT';
export const STATEMENT_FILE_JOB = 'statement-file.import';

/**
 * Files up to this size are waited for (5 s) and a refusal while reading them is a 400, as a file read in the
 * request was; a larger one is answered at once (202) and a refusal fails its job, naming the line.
 */
export const WAITED_FILE_BYTES = 1024 * 1024;

/** The most skipped lines a result lists (a file of 200,000 balance rows would make an answer of megabytes). */
export const SKIPPED_LISTED = 1000;

/** What the first reading of a file found, kept with it: a resumed job, or the same file again, need not read it. */
export interface StatementFound {
  lines: number;
  entries: number;
  /** The first `SKIPPED_LISTED` lines left out, and how many there are. */
  skipped: Array<{ line: number | null; reason: string }>;
  skipped_count: number;
  ledger_balance: { cents: number; date: string } | null;
}

/** Why a file could not be read: its job failed with this, and a waited request answers it as a 400. */
export interface StatementRefusal {
  refusal: { line: number | null; message: string };
}

/** The account or card, 404 unless it is the context's (a card through billing). */
async function resolveTarget(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  holder: { account_id: string } | { credit_card_id: string },
): Promise<StatementTarget> {
  if ('account_id' in holder) {
    if (!(await findAccount(em, ctx, holder.account_id))) throw notFound('Conta não encontrada');
    return { account_id: holder.account_id, credit_card_id: null };
  }
  await requireCard(billing, ctx, holder.credit_card_id);
  return { account_id: null, credit_card_id: holder.credit_card_id };
}

/** A file the client must fix, as its 400: the line in `message` and in `details`. */
export function statementRefused(line: number | null, message: string): AppError {
  return new AppError(400, `Arquivo de extrato inválido: ${message}`, {
    details: [{ field: line === null ? 'arquivo' : `linha ${line}`, message }],
  });
}

/** How a received file will be read, told by the request and the file's first bytes (refused at once when it cannot be). */
function readingOf(
  file: ReceivedFile,
  query: StatementQuery,
  contentType: string | undefined,
  target: StatementTarget,
  timeZone: string,
): StatementReading {
  if (file.bytes === 0) throw new StatementRejected('o arquivo está vazio');
  if (file.binary) throw new StatementRejected('o arquivo é binário, não um extrato OFX ou CSV');
  const encoding = file.utf8 ? 'utf-8' : 'windows-1252';
  const format = formatOf(query, contentType, new StatementDecoder(encoding).decode(file.head));
  if (format === 'csv') csvLayoutOf(query);
  return { ...target, format, query: { ...query }, time_zone: timeZone, encoding, bytes: file.bytes };
}

/**
 * POST /v1/accounts/{id}/statements and /v1/credit-cards/{id}/statements, once the file is stored (it was streamed
 * to PostgreSQL as it arrived): the account or card is checked (404), the file given to a new import job queued
 * through the outbox, in one transaction, and the job is answered. The file is read by the statement-file worker
 * (`runStatementImport`), never here. A file up to `WAITED_FILE_BYTES` is waited for up to 5 s: finished, 200; not
 * readable, 400 naming the line and nothing is left (the job goes); else 202. A larger one is answered 202 at once.
 */
export async function startStatementImport(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  input: {
    holder: { account_id: string } | { credit_card_id: string };
    file: ReceivedFile;
    query: StatementQuery;
    contentType?: string;
  },
  relaySoon: () => void,
  waitMs = IMPORT_ANSWER_WAIT_MS,
): Promise<Reply> {
  const target = await resolveTarget(em, billing, ctx, input.holder);
  let reading: StatementReading;
  try {
    reading = readingOf(input.file, input.query, input.contentType, target, await contextTimeZone(em, ctx));
  } catch (err) {
    if (err instanceof StatementRejected) throw statementRefused(err.line, err.message);
    throw err;
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([input.file.sha256, target, reading.format, reading.query, reading.time_zone]))
    .digest('hex');
  const jobId = await em.transactional(async (tx) => {
    const id = await createBackgroundJob(tx, ctx, STATEMENT_KIND);
    if (!(await claimStatementFile(tx, ctx, input.file.id, { jobId: id, reading, fingerprint }))) {
      throw new Error('statement file already taken by another import');
    }
    const job: StatementFileJob = { background_job_id: id, context: contextRef(ctx) };
    recordJob(tx, QUEUES.statementFiles, STATEMENT_FILE_JOB, { ...job }, id);
    // the answer waits for the job after the commit: a retry whose first attempt died rebuilds it from the job
    keepRecoveryPoint({ job_id: id });
    return id;
  });
  relaySoon();
  return statementAnswer(em, ctx, jobId, input.file.bytes <= WAITED_FILE_BYTES ? waitMs : 0, false);
}

/**
 * The import's answer: the job once it finished (200), or as it is after `waitMs` (202, to poll); a file its job
 * could not read is the 400 it would have been, and the job goes with it unless the answer is being rebuilt.
 */
async function statementAnswer(
  em: EntityManager,
  ctx: CallerContext,
  jobId: string,
  waitMs: number,
  recovering: boolean,
): Promise<Reply> {
  const job = await waitForBackgroundJob(em, ctx, jobId, waitMs);
  if (job.state === 'failed') {
    const file = await selectStatementFileOfJob(em.fork(), ctx, jobId);
    const refusal = (file?.found as Partial<StatementRefusal> | null)?.refusal;
    if (refusal) {
      if (!recovering) await em.fork().transactional((tx) => deleteStatementJob(tx, ctx, jobId));
      throw statementRefused(refusal.line, refusal.message);
    }
  }
  const done = job.state === 'completed' || job.state === 'failed';
  return new Reply(done ? 200 : 202, { job });
}

/** A retry's answer after the first attempt's was lost: from its job (`keepRecoveryPoint`), writing nothing. */
export async function recoverStatementImport(
  em: EntityManager,
  ctx: CallerContext,
  point: unknown,
  waitMs = IMPORT_ANSWER_WAIT_MS,
): Promise<Reply> {
  try {
    return await statementAnswer(em, ctx, (point as { job_id: string }).job_id, waitMs, true);
  } catch (err) {
    // the job went with the refusal it was answered with: that answer was lost
    if (err instanceof AppError && err.status === 404) throw conflict(KEY_ANSWER_LOST);
    throw err;
  }
}
