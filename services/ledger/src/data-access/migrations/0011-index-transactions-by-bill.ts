import { Migration } from '@mikro-orm/migrations';

export class IndexTransactionsByBill extends Migration {
  override async up(): Promise<void> {
    // a bill's entries (show bill, bill totals, summary's open bills) in listing order, without a table scan
    this.addSql(
      'create index transactions_bill_idx on transactions (bill_id, date, id) where bill_id is not null and deleted_at is null',
    );
  }
}
