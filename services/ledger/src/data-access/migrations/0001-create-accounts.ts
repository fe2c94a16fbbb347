import { Migration } from '@mikro-orm/migrations';

export class CreateAccounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table accounts (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      name text not null,
      logo text not null,
      initial_balance bigint not null default 0,
      bank_balance bigint,
      include_total_balance boolean not null default true,
      is_default boolean not null default false,
      type text check (type in ('PERSONAL_BANK', 'BUSINESS_BANK', 'INVESTMENT', 'OTHER')),
      subtype text,
      connection_id uuid,
      external_id text,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(
      'create index accounts_context_idx on accounts (coalesce(profile_id, user_id), id) where deleted_at is null',
    );
    // at most one default account per context
    this.addSql(
      'create unique index accounts_one_default_idx on accounts (coalesce(profile_id, user_id)) where is_default and deleted_at is null',
    );
    this.addSql(
      'create unique index accounts_external_idx on accounts (coalesce(profile_id, user_id), connection_id, external_id) where external_id is not null',
    );
  }
}
