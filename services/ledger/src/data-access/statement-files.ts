import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A new file of the context, its pieces still to come. */
export async function insertStatementFile(em: EntityManager, id: string, ctx: CallerContext): Promise<void> {
  await runSql(em, 'insert into statement_files (id, user_id, profile_id) values (?, ?, ?)', [
    id,
    ctx.userId,
    ctx.profileId,
  ]);
}

/**
 * The file's piece number `seq`, committed without waiting for its WAL to reach the disk: nothing answers on it
 * alone, and the transaction that takes the file commits after it, waiting for the WAL up to there (a piece
 * committed so takes 9 ms against 15–20 ms on the bench's machine).
 */
export async function insertStatementPiece(em: EntityManager, fileId: string, seq: number, data: Buffer) {
  await runSql(
    em,
    `insert into statement_file_pieces (file_id, seq, data)
     select ?, ?, ? from (select set_config('synchronous_commit', 'off', true)) as unflushed`,
    [fileId, seq, data],
  );
}

/** Every piece is stored: the file's size and digest. */
export async function completeStatementFile(em: EntityManager, id: string, file: { bytes: number; sha256: string }) {
  await runSql(em, 'update statement_files set bytes = ?, sha256 = ? where id = ?', [file.bytes, file.sha256, id]);
}

/** Deletes a file (and its pieces) no import took; a taken one stays. */
export async function deleteUnclaimedStatementFile(em: EntityManager, id: string): Promise<void> {
  await runSql(em, 'delete from statement_files where id = ? and job_id is null', [id]);
}

/** Deletes up to `limit` files no import took, received more than `minutes` ago (their request died); how many. */
export async function deleteAbandonedStatementFiles(em: EntityManager, minutes: number, limit: number) {
  const rows = await runSql<{ id: string }>(
    em,
    `delete from statement_files where id in (
       select id from statement_files where job_id is null and created_at < now() - make_interval(mins => ?) limit ?)
     returning id`,
    [minutes, limit],
  );
  return rows.length;
}

/** How the import reads a file: where it goes, as what, with which options and time zone. */
export interface StatementReading {
  account_id: string | null;
  credit_card_id: string | null;
  format: 'ofx' | 'csv';
  query: Record<string, unknown>;
  time_zone: string;
  /** The file's text encoding, told by its bytes. */
  encoding: 'utf-8' | 'windows-1252';
  bytes: number;
}

/**
 * Gives the context's received file to its import job (in the job's transaction): how it is read and its
 * fingerprint. False when the file is not the context's, or was taken already.
 */
export async function claimStatementFile(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  claim: { jobId: string; reading: StatementReading; fingerprint: string },
): Promise<boolean> {
  const scope = contextSql(ctx);
  const rows = await runSql<{ id: string }>(
    em,
    `update statement_files set job_id = ?, reading = ?::jsonb, fingerprint = ?
     where id = ? and job_id is null and sha256 is not null and ${scope.sql} returning id`,
    [claim.jobId, JSON.stringify(claim.reading), claim.fingerprint, id, ...scope.params],
  );
  return rows.length === 1;
}

/** A file as its import job sees it. */
export interface StatementFileRow {
  id: string;
  sha256: string;
  reading: StatementReading;
  fingerprint: string;
  found: unknown;
  imported: number;
  outcome: unknown;
}

/** The file of an import job of the context, or null. */
export async function selectStatementFileOfJob(
  em: EntityManager,
  ctx: CallerContext,
  jobId: string,
): Promise<StatementFileRow | null> {
  const scope = contextSql(ctx);
  const [row] = await runSql<StatementFileRow>(
    em,
    `select id, sha256, reading, fingerprint, found, imported, outcome from statement_files
     where job_id = ? and ${scope.sql}`,
    [jobId, ...scope.params],
  );
  return row ?? null;
}

/** The file's piece `seq`, or null past its last. */
export async function selectStatementPiece(em: EntityManager, fileId: string, seq: number): Promise<Buffer | null> {
  const [row] = await runSql<{ data: Buffer }>(
    em,
    'select data from statement_file_pieces where file_id = ? and seq = ?',
    [fileId, seq],
  );
  return row?.data ?? null;
}

/** What the first pass found (or why it refused the file). */
export async function updateStatementFound(em: EntityManager, id: string, found: unknown): Promise<void> {
  await runSql(em, 'update statement_files set found = ?::jsonb where id = ?', [JSON.stringify(found), id]);
}

/** The entries handed to the pipeline so far and its counts: where a resumed job goes on from. */
export async function updateStatementImported(em: EntityManager, id: string, imported: number, outcome: unknown) {
  await runSql(em, 'update statement_files set imported = ?, outcome = ?::jsonb where id = ?', [
    imported,
    JSON.stringify(outcome),
    id,
  ]);
}

/** The file's bytes, once its job no longer needs them. */
export async function deleteStatementPieces(em: EntityManager, fileId: string): Promise<void> {
  await runSql(em, 'delete from statement_file_pieces where file_id = ?', [fileId]);
}

/**
 * What an earlier import of the context found in a file with this fingerprint, when its job completed (the same
 * bytes read the same way into the same account or card); null otherwise.
 */
export async function selectImportedFingerprint(
  em: EntityManager,
  ctx: CallerContext,
  fingerprint: string,
  exceptFileId: string,
): Promise<{ found: unknown } | null> {
  const scope = contextSql(ctx, 'f');
  const [row] = await runSql<{ found: unknown }>(
    em,
    `select f.found from statement_files f join background_jobs j on j.id = f.job_id
     where ${scope.sql} and f.fingerprint = ? and f.id <> ? and j.state = 'completed' limit 1`,
    [...scope.params, fingerprint, exceptFileId],
  );
  return row ?? null;
}

/** Deletes an import job of the context and its file (a refusal answered 400 leaves nothing). */
export async function deleteStatementJob(em: EntityManager, ctx: CallerContext, jobId: string): Promise<void> {
  const scope = contextSql(ctx);
  await runSql(em, `delete from background_jobs where id = ? and ${scope.sql}`, [jobId, ...scope.params]);
}
