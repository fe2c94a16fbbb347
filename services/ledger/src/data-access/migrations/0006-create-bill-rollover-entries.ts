import { Migration } from '@mikro-orm/migrations';

export class CreateBillRolloverEntries extends Migration {
  override async up(): Promise<void> {
    // one previous-balance entry per source bill, however often the rollover runs
    this.addSql(`create table bill_rollover_entries (
      source_bill_id uuid primary key,
      transaction_id uuid not null,
      created_at timestamptz(3) not null default now()
    )`);
  }
}
