import { Migration } from '@mikro-orm/migrations';

export class CreateBackgroundJobs extends Migration {
  override async up(): Promise<void> {
    // what a client polls through GET /v1/jobs/{id}; the BullMQ job id is this id
    this.addSql(`create table background_jobs (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      kind text not null,
      state text not null default 'waiting' check (state in ('waiting', 'active', 'completed', 'failed')),
      progress int not null default 0 check (progress between 0 and 100),
      result jsonb,
      error text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      finished_at timestamptz(3)
    )`);
    this.addSql(
      'create index background_jobs_context_idx on background_jobs (coalesce(profile_id, user_id), created_at)',
    );
  }
}
