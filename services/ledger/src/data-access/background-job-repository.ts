import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Records a waiting job of the context (in the caller's transaction). */
export async function insertBackgroundJob(em: EntityManager, id: string, ctx: CallerContext, kind: string) {
  await runSql(em, 'insert into background_jobs (id, user_id, profile_id, kind) values (?, ?, ?, ?)', [
    id,
    ctx.userId,
    ctx.profileId,
    kind,
  ]);
}

/** A job by id, locked FOR UPDATE until the transaction ends; undefined when none. */
export async function lockBackgroundJob<State extends string>(em: EntityManager, id: string) {
  const [row] = await runSql<{ kind: string; state: State; user_id: string; profile_id: string | null }>(
    em,
    'select kind, state, user_id, profile_id from background_jobs where id = ? for update',
    [id],
  );
  return row;
}

/** Writes a job's report (state, progress 0–100, result, error); a finished state sets its finish time once. */
export async function updateBackgroundJobRow(
  em: EntityManager,
  id: string,
  patch: { state?: string; progress?: number; result?: unknown; error?: string | null },
): Promise<void> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [];
  if (patch.state !== undefined) {
    sets.push('state = ?');
    params.push(patch.state);
    if (patch.state === 'completed' || patch.state === 'failed')
      sets.push('finished_at = coalesce(finished_at, now())');
    else sets.push('finished_at = null');
  }
  if (patch.progress !== undefined) {
    sets.push('progress = ?');
    params.push(Math.max(0, Math.min(100, Math.round(patch.progress))));
  }
  if (patch.result !== undefined) {
    sets.push('result = ?::jsonb');
    params.push(JSON.stringify(patch.result));
  }
  if (patch.error !== undefined) {
    sets.push('error = ?');
    params.push(patch.error);
  }
  await runSql(em, `update background_jobs set ${sets.join(', ')} where id = ?`, [...params, id]);
}

/** A job of the context by id (another context's is null). */
export async function findBackgroundJob<Row>(em: EntityManager, ctx: CallerContext, id: string): Promise<Row | null> {
  const scope = contextSql(ctx);
  const rows = await runSql<Row>(
    em,
    `select id, kind, state, progress, result, error, created_at, finished_at from background_jobs
     where id = ? and ${scope.sql}`,
    [id, ...scope.params],
  );
  return rows[0] ?? null;
}

/** The state of a job of the context, null when unknown there. */
export async function findBackgroundJobState(em: EntityManager, ctx: CallerContext, id: string) {
  const [record] = await runSql<{ state: string }>(
    em,
    `select state from background_jobs where id = ? and user_id = ? and profile_id is not distinct from ?::uuid`,
    [id, ctx.userId, ctx.profileId],
  );
  return record?.state ?? null;
}
