import type { CallerContext } from '@finance/shared/context/signed-context';
import type { OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { contextRef } from '@finance/shared/db/context-scope';
import { conflict } from '@finance/shared/errors/app-error';
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
 * The one way into the import pipeline (the JSON import and every Open Finance sync): the payload is stored with
 * a waiting IMPORT job, queued through the outbox in the caller's transaction (job id = background job id).
 */
export async function enqueueImport(
  tx: EntityManager,
  ctx: CallerContext,
  payload: OpenBankingImport,
): Promise<string> {
  const connection = await findConnectionByExternalId(tx, ctx, payload.connection.id);
  if (connection?.status === 'REVOKED') throw conflict(REVOKED_MESSAGE);
  const jobId = await createBackgroundJob(tx, ctx, IMPORT_KIND);
  await insertImportPayload(tx, jobId, ctx, payload);
  const job: ImportJob = { background_job_id: jobId, context: contextRef(ctx) };
  recordJob(tx, QUEUES.imports, IMPORT_JOB, { ...job }, jobId);
  return jobId;
}

/**
 * POST /v1/open-banking/imports: stores the payload with a waiting IMPORT job and queues it through the
 * outbox (job id = background job id) in one transaction, so a Redis outage only delays it; wakes the outbox
 * relay (`relaySoon`) once committed; answers the finished job (200) when it ends within 5 s, else 202.
 */
export async function startImport(
  em: EntityManager,
  ctx: CallerContext,
  payload: OpenBankingImport,
  relaySoon: () => void,
  waitMs = IMPORT_ANSWER_WAIT_MS,
): Promise<Reply> {
  const id = await em.transactional((tx) => enqueueImport(tx, ctx, payload));
  relaySoon();
  const job = await waitForBackgroundJob(em, ctx, id, waitMs);
  const done = job.state === 'completed' || job.state === 'failed';
  return new Reply(done ? 200 : 202, { job });
}
