import { Migration } from '@mikro-orm/migrations';

export class AddBillWorkLease extends Migration {
  override async up(): Promise<void> {
    // a payment or a rollover claims a bill until this instant (taken under the row lock, released after the
    // ledger call): the ledger is never called while a transaction or a lock is held
    this.addSql('alter table bills add column busy_until timestamptz(3)');
  }
}
