import type { CallerContext } from '@finance/shared/context/signed-context';
import type { OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { contextRef } from '@finance/shared/db/context-scope';
import { conflict } from '@finance/shared/errors/app-error';
import { keepRecoveryPoint } from '@finance/shared/http/kept-answer';
import { Reply } from '@finance/shared/http/service-routes';
import { type ImportJob, QUEUES } from '@finance/shared/queue/catalogue';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insertImportPayload } from '../../data-access/connection-repository.ts';
import { createBackgroundJob, IMPORT_KIND, waitForBackgroundJob } from '../jobs/background-jobs.ts';
import { findConnectionByExternalId } from './connections.ts';

/** How long the request waits for the worker before answering 202. */
export const IMPORT_ANSWER_WAIT_MS = 5000;

export const REVOKED_MESSAGE =
  'O consentimento desta conexão foi revogado; crie uma nova conexão no banco para importar';

export const IMPORT_JOB = 'open-banking.import';

/**
 * The one way into the import pipeline: stores the payload with a waiting job of `kind` and queues it through the
 * outbox in the caller's transaction (job id = background job id), so a Redis outage only delays it. A connection
 * whose consent was revoked takes no import (409).
 */
export async function enqueueImport(
  tx: EntityManager,
  ctx: CallerContext,
  stored: { kind: string; payload: unknown; connectionId?: string },
): Promise<string> {
  if (stored.connectionId !== undefined) {
    const connection = await findConnectionByExternalId(tx, ctx, stored.connectionId);
    if (connection?.status === 'REVOKED') throw conflict(REVOKED_MESSAGE);
  }
  const jobId = await createBackgroundJob(tx, ctx, stored.kind);
  await insertImportPayload(tx, jobId, ctx, stored.payload);
  const job: ImportJob = { background_job_id: jobId, context: contextRef(ctx) };
  recordJob(tx, QUEUES.imports, IMPORT_JOB, { ...job }, jobId);
  return jobId;
}

/** POST /v1/open-banking/imports: the JSON payload through `queueImport`. */
export function startImport(
  em: EntityManager,
  ctx: CallerContext,
  payload: OpenBankingImport,
  relaySoon: () => void,
  waitMs = IMPORT_ANSWER_WAIT_MS,
): Promise<Reply> {
  return queueImport(em, ctx, { kind: IMPORT_KIND, payload, connectionId: payload.connection.id }, relaySoon, waitMs);
}

/**
 * An import a request waits for (the JSON payload, a statement file's entries): queued in its own transaction
 * (`enqueueImport`); wakes the outbox relay (`relaySoon`) once committed; answers the finished job (200) when it
 * ends within 5 s, else 202.
 */
export async function queueImport(
  em: EntityManager,
  ctx: CallerContext,
  stored: { kind: string; payload: unknown; connectionId?: string },
  relaySoon: () => void,
  waitMs = IMPORT_ANSWER_WAIT_MS,
): Promise<Reply> {
  const id = await em.transactional(async (tx) => {
    const jobId = await enqueueImport(tx, ctx, stored);
    // the answer waits for the job after the commit: a retry whose first attempt died rebuilds it from the job
    keepRecoveryPoint({ job_id: jobId });
    return jobId;
  });
  relaySoon();
  return importAnswer(em, ctx, id, waitMs);
}

/** The import's answer: the job once it finished (200), or as it is after `waitMs` (202, to poll). */
async function importAnswer(em: EntityManager, ctx: CallerContext, jobId: string, waitMs: number): Promise<Reply> {
  const job = await waitForBackgroundJob(em, ctx, jobId, waitMs);
  const done = job.state === 'completed' || job.state === 'failed';
  return new Reply(done ? 200 : 202, { job });
}

/** A retry's answer after the first attempt's was lost: from its job (`keepRecoveryPoint`). */
export function recoverImport(em: EntityManager, ctx: CallerContext, point: unknown, waitMs = IMPORT_ANSWER_WAIT_MS) {
  return importAnswer(em, ctx, (point as { job_id: string }).job_id, waitMs);
}
