import type { MigrationList } from '@finance/shared/db/orm';
import { Migration } from '@mikro-orm/migrations';

class CreateGatewayTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table users (
      id uuid primary key,
      name text,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(`create table companies (
      id uuid primary key,
      name text not null,
      license text not null check (license in ('active', 'inactive')),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(`create table company_members (
      company_id uuid not null references companies (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz(3) not null,
      primary key (company_id, user_id)
    )`);
    this.addSql(`create table api_keys (
      id uuid primary key,
      token text not null unique,
      secret_hash text not null,
      scopes text[] not null check (scopes <@ array['read', 'write']::text[] and cardinality(scopes) > 0),
      user_id uuid not null references users (id),
      profile_id uuid references companies (id),
      revoked_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index api_keys_user_idx on api_keys (user_id)');
  }
}

/**
 * Any change that can turn a verified key bad (revocation or deletion of the key, a license change, a company
 * or membership removed) notifies `gateway_access_changed` when it commits, whoever writes it (admin CLI,
 * SQL console): every gateway replica listening drops its cache of verified keys at once.
 */
class NotifyAccessChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function notify_access_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('gateway_access_changed', tg_table_name);
        return null;
      end $$`);
    this.addSql(`create trigger api_keys_access_changed after update or delete or truncate on api_keys
      for each statement execute function notify_access_changed()`);
    this.addSql(`create trigger companies_access_changed after update or delete or truncate on companies
      for each statement execute function notify_access_changed()`);
    this.addSql(`create trigger company_members_access_changed after delete or update or truncate on company_members
      for each statement execute function notify_access_changed()`);
  }
}

export const gatewayMigrations: MigrationList = [
  { name: '0001-create-gateway-tables', class: CreateGatewayTables },
  { name: '0002-notify-access-changes', class: NotifyAccessChanges },
];
