import { Migration } from '@mikro-orm/migrations';

export class CreateCreditCardsAndBills extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table credit_cards (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      name text not null,
      logo text,
      account_id uuid not null,
      closing_day int not null check (closing_day between 1 and 31),
      due_day int not null check (due_day between 1 and 31),
      "limit" bigint not null default 0,
      is_unlimited boolean not null default false,
      needs_closing_date_review boolean not null default false,
      connection_id uuid,
      external_id text,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(
      'create index credit_cards_context_idx on credit_cards (coalesce(profile_id, user_id), id) where deleted_at is null',
    );
    this.addSql('create index credit_cards_account_idx on credit_cards (account_id) where deleted_at is null');
    this.addSql(
      'create unique index credit_cards_external_idx on credit_cards (coalesce(profile_id, user_id), connection_id, external_id) where external_id is not null',
    );
    // one row per card and month, so a bill id stays the same across reads
    this.addSql(`create table bills (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      credit_card_id uuid not null references credit_cards (id),
      reference_month date not null check (extract(day from reference_month) = 1),
      closing_date date not null,
      due_date date not null,
      rolled_over_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      unique (credit_card_id, reference_month)
    )`);
    this.addSql('create index bills_rollover_idx on bills (due_date) where rolled_over_at is null');
  }
}
