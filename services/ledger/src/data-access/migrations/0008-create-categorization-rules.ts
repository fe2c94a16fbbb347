import { Migration } from '@mikro-orm/migrations';

export class CreateCategorizationRules extends Migration {
  override async up(): Promise<void> {
    // same rules as domain/rules/normalize.ts (a fixed map, no locale, no unaccent extension)
    this.addSql(`create function normalize_merchant_name(value text) returns text
      language sql immutable parallel safe returns null on null input
      as $fn$ select nullif(btrim(regexp_replace(translate(value,
        'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿŸABCDEFGHIJKLMNOPQRSTUVWXYZ',
        'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyyyabcdefghijklmnopqrstuvwxyz'),
        '[ \\t\\n\\r\\f\\v]+', ' ', 'g'), ' '), '') $fn$`);
    this.addSql(`create function normalize_cnpj(value text) returns text
      language sql immutable parallel safe returns null on null input
      as $fn$ select nullif(regexp_replace(value, '[^0-9]', '', 'g'), '') $fn$`);
    this.addSql(`alter table transactions
      add column merchant_name_normalized text generated always as (normalize_merchant_name(merchant_name)) stored,
      add column merchant_cnpj_digits text generated always as (normalize_cnpj(merchant_cnpj)) stored`);
    // rule matching walks one context's transactions by normalized value, in id order (keyset batches)
    this.addSql(`create index transactions_merchant_name_idx on transactions
      (coalesce(profile_id, user_id), merchant_name_normalized, id)
      where deleted_at is null and merchant_name_normalized is not null`);
    this.addSql(`create index transactions_merchant_cnpj_idx on transactions
      (coalesce(profile_id, user_id), merchant_cnpj_digits, id)
      where deleted_at is null and merchant_cnpj_digits is not null`);

    this.addSql(`create table categorization_rules (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      category_id uuid not null,
      subcategory_id uuid,
      enabled boolean not null default true,
      is_expense boolean not null,
      match_fields text[] not null
        check (cardinality(match_fields) > 0 and match_fields <@ array['merchant_name', 'merchant_cnpj']),
      match_merchant_name text,
      match_merchant_cnpj text,
      source_id uuid not null,
      source_kind text not null check (source_kind in ('ACCOUNT', 'CREDIT_CARD')),
      source_transaction_id uuid not null,
      available_criteria jsonb not null,
      fingerprint text not null,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      deleted_at timestamptz(3),
      -- the matched values are those of match_fields, so a rule never matches on a field it does not list
      constraint categorization_rules_match_values check (
        (match_merchant_name is not null) = ('merchant_name' = any (match_fields))
        and (match_merchant_cnpj is not null) = ('merchant_cnpj' = any (match_fields)))
    )`);
    this.addSql(`create unique index categorization_rules_fingerprint_idx on categorization_rules
      (coalesce(profile_id, user_id), fingerprint) where deleted_at is null`);
    this.addSql(`create index categorization_rules_context_idx on categorization_rules
      (coalesce(profile_id, user_id), id) where deleted_at is null`);

    // one row per apply_to_existing job: cursor and counts move in the same transaction as each batch
    this.addSql(`create table recategorization_runs (
      job_id uuid primary key,
      rule_id uuid not null,
      user_id uuid not null,
      profile_id uuid,
      is_expense boolean not null,
      match_merchant_name text,
      match_merchant_cnpj text,
      category_id uuid not null,
      subcategory_id uuid,
      total int not null,
      scanned int not null default 0,
      changed int not null default 0,
      cursor_id uuid,
      finished_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
  }
}
