import { setTimeout as sleep } from 'node:timers/promises';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { iso } from '@finance/shared/db/context-scope';
import { notFound } from '@finance/shared/errors/app-error';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  findBackgroundJob,
  findBackgroundJobState,
  insertBackgroundJob,
  lockBackgroundJob,
  updateBackgroundJobRow,
} from '../../data-access/background-job-repository.ts';
import { nextPollMs } from './poll-interval.ts';

export type BackgroundJobState = 'waiting' | 'active' | 'completed' | 'failed';

/** The record of GET /v1/jobs/{id}. */
export interface BackgroundJob {
  id: string;
  kind: string;
  state: BackgroundJobState;
  progress: number;
  result: unknown;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

interface JobRow {
  id: string;
  kind: string;
  state: BackgroundJobState;
  progress: number;
  result: unknown;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const view = (row: JobRow): BackgroundJob => ({
  id: row.id,
  kind: row.kind,
  state: row.state,
  progress: row.progress,
  result: row.result ?? null,
  error: row.error,
  createdAt: iso(row.created_at) as string,
  finishedAt: iso(row.finished_at),
});

/** Records a waiting job inside the caller's transaction; its id is also the BullMQ job id. */
export async function createBackgroundJob(em: EntityManager, ctx: CallerContext, kind: string): Promise<string> {
  const id = newId();
  await insertBackgroundJob(em, id, ctx, kind);
  return id;
}

/** Workers report here; a completed or failed job gets its finish time once. */
export async function updateBackgroundJob(
  em: EntityManager,
  id: string,
  patch: { state?: BackgroundJobState; progress?: number; result?: unknown; error?: string | null },
): Promise<void> {
  await em.transactional(async (tx) => {
    const before = await lockBackgroundJob<BackgroundJobState>(tx, id);
    await updateBackgroundJobRow(tx, id, patch);
    // an import's end is an event (webhooks), recorded once: when the job first reaches completed or failed
    if (before?.kind === IMPORT_KIND && isFinished(patch.state) && !isFinished(before.state)) {
      const completed = patch.state === 'completed';
      const result = (patch.result ?? null) as { connection_id?: string } | null;
      recordEvent(
        tx,
        completed ? 'import.completed' : 'import.failed',
        { user_id: before.user_id, profile_id: before.profile_id },
        {
          job_id: id,
          connection_id: result?.connection_id ?? null,
          status: completed ? 'COMPLETED' : 'FAILED',
          result: completed ? (result as Record<string, unknown> | null) : null,
          error: completed ? null : (patch.error ?? null),
        },
      );
    }
  });
}

export const IMPORT_KIND = 'IMPORT';

const isFinished = (state: BackgroundJobState | undefined) => state === 'completed' || state === 'failed';

/** The state of a job of the context (import workers check it before running); null when unknown there. */
export async function backgroundJobState(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
): Promise<BackgroundJobState | null> {
  return ((await findBackgroundJobState(em, ctx, id)) as BackgroundJobState | null) ?? null;
}

/** GET /v1/jobs/{id}: any job the caller's context started; another context's is 404. */
export async function getBackgroundJob(em: EntityManager, ctx: CallerContext, id: string): Promise<BackgroundJob> {
  const row = await findBackgroundJob<JobRow>(em, ctx, id);
  if (!row) throw notFound('Tarefa não encontrada');
  return view(row);
}

const finished = (job: BackgroundJob) => job.state === 'completed' || job.state === 'failed';

/** Polls until the job finishes or the time is up (sooner as its progress nears the end), and answers the job as it then is. */
export async function waitForBackgroundJob(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  timeoutMs: number,
): Promise<BackgroundJob> {
  const started = performance.now();
  const deadline = started + timeoutMs;
  let job = await getBackgroundJob(em, ctx, id);
  while (!finished(job) && performance.now() < deadline) {
    const pause = nextPollMs(job.progress, performance.now() - started);
    await sleep(Math.min(pause, Math.max(0, deadline - performance.now())));
    job = await getBackgroundJob(em.fork(), ctx, id);
  }
  return job;
}
