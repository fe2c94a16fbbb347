import { CONTEXT_ID_COLUMN } from '@finance/shared/db/context-scope';
import { Migration } from '@mikro-orm/migrations';

export class ImportPipeline extends Migration {
  override async up(): Promise<void> {
    // a purchase in another currency keeps what the bank charged there (docs/decisions.md §9)
    this.addSql(
      'alter table transactions add column original_amount numeric check (original_amount > 0), add column original_currency text',
    );
    // every id a source gave an entry: one entry may carry ids of several sources (a connection, an OFX file, a
    // CSV file) and, after a pending entry was effected under a new id, two ids of one source
    this.addSql(`create table import_keys (
      user_id uuid not null,
      profile_id uuid,
      ${CONTEXT_ID_COLUMN},
      source text not null,
      key text not null,
      transaction_id uuid not null references transactions (id),
      status text not null check (status in ('BOOKED', 'PENDING', 'FORECAST')),
      created_at timestamptz(3) not null default now()
    )`);
    this.addSql('create unique index import_keys_key_idx on import_keys (context_id, source, key)');
    this.addSql('create index import_keys_transaction_idx on import_keys (transaction_id, source)');
    this.addSql(`insert into import_keys (user_id, profile_id, source, key, transaction_id, status)
      select user_id, profile_id, 'connection:' || connection_id, external_id, id, 'BOOKED'
      from transactions where external_id is not null and connection_id is not null`);
    // a context's forecasts (unpaid manual entries, on accounts) by account, amount and date: what an imported entry
    // may settle, found without reading the pairs of every same amount
    this.addSql(`create index transactions_forecasts_idx on transactions (context_id, account_id, amount, date)
      where not paid and external_id is null and reconciled_at is null and deleted_at is null`);
    // "is this entry already the reconciliation of a forecast?" by index, for imports and suggestions
    this.addSql(
      'create index transactions_reconciled_with_idx on transactions (reconciled_with_transaction_id) where reconciled_with_transaction_id is not null',
    );
  }
}
