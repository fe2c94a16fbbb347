import { CONTEXT_ID_COLUMN } from '@finance/shared/db/context-scope';
import { Migration } from '@mikro-orm/migrations';

export class TransactionSplits extends Migration {
  override async up(): Promise<void> {
    // a split entry counts in reports by its parts; the flag keeps the reports' plain branch free of a join
    this.addSql('alter table transactions add column is_split boolean not null default false');
    this.addSql(`create table transaction_splits (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      ${CONTEXT_ID_COLUMN},
      transaction_id uuid not null references transactions (id),
      position smallint not null check (position >= 0),
      amount bigint not null check (amount > 0 and amount <= 10000000000000),
      category_id uuid,
      subcategory_id uuid,
      description text,
      tag_ids uuid[] not null default '{}',
      contact_id uuid,
      cost_center_id uuid,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      unique (transaction_id, position)
    )`);
    // the reports' split branch: a context's split entries by date, then their parts by parent, or the context's parts
    // whole (a year's report reads them all: with only the parent's index PostgreSQL hashed every context's parts)
    this.addSql(
      'create index transactions_split_date_idx on transactions (context_id, date, id) where is_split and deleted_at is null',
    );
    this.addSql(`create index transaction_splits_context_idx on transaction_splits (context_id)
      include (transaction_id, amount, category_id, subcategory_id)`);
    // the cash-flow forecast's entries still to be paid or received: a context's unpaid account entries by date
    this.addSql(`create index transactions_unpaid_idx on transactions (context_id, date)
      where not paid and account_id is not null and deleted_at is null`);
    // the forecast's recurrences: a context's series by their first member (deleted or not: the series goes on)
    this.addSql(`create index transactions_series_heads_idx on transactions (context_id, id)
      where type = 'RECURRENT' and series_index = 0`);
    // a rule may split what it categorizes, by percentages (basis points); its recategorization keeps a snapshot
    this.addSql('alter table categorization_rules add column splits jsonb');
    this.addSql('alter table recategorization_runs add column splits jsonb');
    // the context's alert threshold of the cash-flow forecast, in cents (a balance below it is a shortfall)
    this.addSql('alter table personal_configs add column cash_flow_threshold bigint not null default 0');
  }
}
