import { CONTEXT_ID_COLUMN } from '@finance/shared/db/context-scope';
import { Migration } from '@mikro-orm/migrations';

export class StatementFiles extends Migration {
  override async up(): Promise<void> {
    // a statement file as it arrived, then how its import reads it (docs/open-banking.md, "Statement files")
    this.addSql(`create table statement_files (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      ${CONTEXT_ID_COLUMN},
      created_at timestamptz(3) not null default now(),
      -- once every piece is stored
      bytes int,
      sha256 text,
      -- the import that took it (null: still arriving, or left by a request that did not import it)
      job_id uuid references background_jobs (id) on delete cascade,
      -- how it is read: into which account or card, as what, with which options and time zone
      reading jsonb,
      -- the same bytes read the same way into the same account or card: sha256 of all that
      fingerprint text,
      -- what the first pass found: lines, entries, skipped lines and the stated balance; or the refusal
      found jsonb,
      -- entries handed to the pipeline so far (a resumed job goes on from there) and the pipeline's counts
      imported int not null default 0,
      outcome jsonb
    )`);
    // its bytes, in pieces of 256 KiB read one at a time; gone once its job finished
    this.addSql(`create table statement_file_pieces (
      file_id uuid not null references statement_files (id) on delete cascade,
      seq int not null,
      data bytea not null,
      primary key (file_id, seq)
    )`);
    this.addSql('create unique index statement_files_job_idx on statement_files (job_id) where job_id is not null');
    // "this file was already imported" by its fingerprint, in its context
    this.addSql(
      'create index statement_files_fingerprint_idx on statement_files (context_id, fingerprint) where fingerprint is not null',
    );
    // files no import took (their request refused, replayed or cut; a process died): swept by age
    this.addSql('create index statement_files_unclaimed_idx on statement_files (created_at) where job_id is null');
  }
}
