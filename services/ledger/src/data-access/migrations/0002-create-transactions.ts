import { Migration } from '@mikro-orm/migrations';

export class CreateTransactions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table transactions (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      amount bigint not null check (amount > 0 and amount <= 10000000000000),
      date date not null,
      title text not null,
      description text,
      is_expense boolean not null,
      paid boolean not null default false,
      paid_at timestamptz(3),
      type text not null check (type in ('FIXED', 'RECURRENT', 'PARCELLED', 'TRANSFER')),
      installments int not null default 1 check (installments >= 1),
      installment_number int,
      frequency text check (frequency in ('DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'BIMONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'YEARLY')),
      currency text not null default 'BRL',
      account_id uuid references accounts (id),
      credit_card_id uuid,
      bill_id uuid,
      billed_at timestamptz(3),
      category_id uuid,
      subcategory_id uuid,
      competence_date date,
      contact_id uuid,
      cost_center_id uuid,
      document_number text,
      connected_transaction_id uuid,
      is_bill_payment boolean not null default false,
      is_full_amount boolean not null default false,
      is_previous_balance boolean not null default false,
      show_on_balance boolean not null default true,
      logo_url text,
      merchant_cnae text,
      merchant_cnpj text,
      merchant_name text,
      operation_type text,
      reconciled_at timestamptz(3),
      reconciled_by_user_id uuid,
      reconciled_with_transaction_id uuid,
      series_index int,
      external_id text,
      connection_id uuid,
      deleted_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      constraint transactions_one_holder check ((account_id is null) <> (credit_card_id is null))
    )`);
    // listing by context and date, then creation (uuidv7 ids follow creation)
    this.addSql(
      'create index transactions_context_date_idx on transactions (coalesce(profile_id, user_id), date, id) where deleted_at is null',
    );
    this.addSql(
      'create index transactions_account_idx on transactions (account_id) include (amount, is_expense, paid, show_on_balance) where deleted_at is null',
    );
    this.addSql(
      'create index transactions_card_idx on transactions (credit_card_id, date) where deleted_at is null and credit_card_id is not null',
    );
    // a series never holds two members at one position: recurrence generation is idempotent through it
    this.addSql(
      'create unique index transactions_series_idx on transactions (connected_transaction_id, series_index) where connected_transaction_id is not null',
    );
    this.addSql(
      'create unique index transactions_external_idx on transactions (coalesce(profile_id, user_id), connection_id, external_id) where external_id is not null',
    );
    this.addSql(`create table transaction_tags (
      transaction_id uuid not null references transactions (id) on delete cascade,
      tag_id uuid not null,
      primary key (transaction_id, tag_id)
    )`);
    this.addSql('create index transaction_tags_tag_idx on transaction_tags (tag_id)');
    // open recurrences: the job extends each one up to the rolling horizon from its anchor
    this.addSql(`create table recurrence_series (
      series_id uuid primary key references transactions (id),
      anchor date not null,
      frequency text not null,
      next_index int not null,
      ended boolean not null default false,
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql('create index recurrence_series_open_idx on recurrence_series (series_id) where not ended');
  }
}
