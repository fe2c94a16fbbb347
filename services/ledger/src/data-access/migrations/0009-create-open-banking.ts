import { Migration } from '@mikro-orm/migrations';

export class CreateOpenBanking extends Migration {
  override async up(): Promise<void> {
    // one row per bank connection of a context; accounts and transactions point at its id
    this.addSql(`create table connections (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      external_id text not null,
      institution text not null,
      status text not null default 'ACTIVE' check (status in ('ACTIVE', 'REVOKED')),
      revoked_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql(
      'create unique index connections_external_idx on connections (coalesce(profile_id, user_id), external_id)',
    );
    // the payload of an import waits here so the queue never holds the only copy
    this.addSql(`create table open_banking_imports (
      job_id uuid primary key references background_jobs (id),
      user_id uuid not null,
      profile_id uuid,
      payload jsonb not null,
      created_at timestamptz(3) not null default now()
    )`);
    // one revocation per connection, however often the job runs
    this.addSql(`create table consent_revocations (
      connection_id uuid primary key references connections (id),
      user_id uuid not null,
      profile_id uuid,
      external_id text not null,
      institution text not null,
      revoked_at timestamptz(3) not null default now()
    )`);
  }
}
