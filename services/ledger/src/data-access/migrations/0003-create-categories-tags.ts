import { Migration } from '@mikro-orm/migrations';

const COLOR = `~ '^#[0-9A-Fa-f]{6}$'`;
const DRE_GROUPS = `('receita', 'deducoes', 'custos', 'despesas_operacionais', 'financeiro', 'investimento', 'retiradas')`;

export class CreateCategoriesTags extends Migration {
  override async up(): Promise<void> {
    // user_id null = system category, visible to every context and read-only
    this.addSql(`create table categories (
      id uuid primary key,
      user_id uuid,
      profile_id uuid,
      name text not null,
      is_expense boolean not null,
      is_essential boolean not null default false,
      is_hidden boolean not null default false,
      icon text,
      icon_name text not null,
      icon_background_color text not null check (icon_background_color ${COLOR}),
      image text,
      dre_group text check (dre_group in ${DRE_GROUPS}),
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(
      'create index categories_context_idx on categories (coalesce(profile_id, user_id), id) where deleted_at is null',
    );
    this.addSql('create index categories_system_idx on categories (id) where user_id is null and deleted_at is null');
    this.addSql(`create table subcategories (
      id uuid primary key,
      category_id uuid not null references categories (id),
      user_id uuid,
      profile_id uuid,
      name text not null,
      is_essential boolean not null default false,
      is_hidden boolean not null default false,
      icon_name text not null,
      icon_background_color text not null check (icon_background_color ${COLOR}),
      image text,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(
      'create index subcategories_context_idx on subcategories (coalesce(profile_id, user_id), id) where deleted_at is null',
    );
    this.addSql('create index subcategories_category_idx on subcategories (category_id) where deleted_at is null');
    this.addSql(`create table tags (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      name text not null,
      color text not null check (color ${COLOR}),
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index tags_context_idx on tags (coalesce(profile_id, user_id), id) where deleted_at is null');
  }
}
