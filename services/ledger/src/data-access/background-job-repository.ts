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

/** Sets the given `column = ?` assignments (their parameters in order) on one job. */
export async function updateBackgroundJobColumns(em: EntityManager, id: string, sets: string[], params: unknown[]) {
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
