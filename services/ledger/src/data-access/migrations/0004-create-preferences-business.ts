import { Migration } from '@mikro-orm/migrations';

export class CreatePreferencesBusiness extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table personal_configs (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      auto_reconcile_enabled boolean not null,
      include_bill_payments boolean not null,
      include_current_bill_in_to_pay boolean not null,
      include_investments boolean not null,
      include_transfers boolean not null,
      show_open_bill boolean not null,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    // one configuration per context
    this.addSql('create unique index personal_configs_context_idx on personal_configs (coalesce(profile_id, user_id))');
    this.addSql(`create table contacts (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid not null,
      name text not null,
      kind text not null check (kind in ('CUSTOMER', 'SUPPLIER', 'BOTH')),
      document text,
      email text,
      phone text,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index contacts_context_idx on contacts (profile_id, id) where deleted_at is null');
    this.addSql(`create table cost_centers (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid not null,
      name text not null,
      code text,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index cost_centers_context_idx on cost_centers (profile_id, id) where deleted_at is null');
    this.addSql(`create table dre_mappings (
      profile_id uuid not null,
      category_id uuid not null references categories (id),
      user_id uuid not null,
      dre_group text not null check (dre_group in ('receita', 'deducoes', 'custos', 'despesas_operacionais', 'financeiro', 'investimento', 'retiradas')),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      primary key (profile_id, category_id)
    )`);
  }
}
