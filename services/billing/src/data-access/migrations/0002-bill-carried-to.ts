import { Migration } from '@mikro-orm/migrations';

export class AddBillCarriedTo extends Migration {
  override async up(): Promise<void> {
    // the bill an unpaid remainder was carried into: paying the source again would charge it twice
    this.addSql('alter table bills add column carried_to_bill_id uuid references bills (id)');
  }
}
