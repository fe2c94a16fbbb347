import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from './transaction-repository.ts';

/** One apply_to_existing job: what it applies (a snapshot of the rule), where it is and what it changed. */
export interface RunRow {
  job_id: string;
  rule_id: string;
  user_id: string;
  profile_id: string | null;
  is_expense: boolean;
  match_merchant_name: string | null;
  match_merchant_cnpj: string | null;
  category_id: string;
  subcategory_id: string | null;
  total: number;
  scanned: number;
  changed: number;
  cursor_id: string | null;
  finished_at: Date | null;
}

export type NewRun = Omit<RunRow, 'scanned' | 'changed' | 'cursor_id' | 'finished_at'>;

export async function insertRun(em: EntityManager, run: NewRun): Promise<void> {
  await execute(
    em,
    `insert into recategorization_runs (job_id, rule_id, user_id, profile_id, is_expense, match_merchant_name,
       match_merchant_cnpj, category_id, subcategory_id, total) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      run.job_id,
      run.rule_id,
      run.user_id,
      run.profile_id,
      run.is_expense,
      run.match_merchant_name,
      run.match_merchant_cnpj,
      run.category_id,
      run.subcategory_id,
      run.total,
    ],
  );
}

/** The run under a row lock: two workers holding the same job never apply one batch twice. */
export async function lockRun(em: EntityManager, jobId: string): Promise<RunRow | null> {
  const rows = await execute<RunRow>(em, 'select * from recategorization_runs where job_id = ? for update', [jobId]);
  return rows[0] ?? null;
}

/** Moves the cursor and the counts in the batch's own transaction, so a crash never loses or repeats one. */
export async function advanceRun(
  em: EntityManager,
  jobId: string,
  batch: { lastId: string | null; scanned: number; changed: number; finished: boolean },
): Promise<void> {
  await execute(
    em,
    `update recategorization_runs set cursor_id = coalesce(?, cursor_id), scanned = scanned + ?, changed = changed + ?,
       finished_at = case when ? then now() else finished_at end, updated_at = now()
     where job_id = ?`,
    [batch.lastId, batch.scanned, batch.changed, batch.finished, jobId],
  );
}
