import { Migration } from '@mikro-orm/migrations';

export class CategoryDirectionOptional extends Migration {
  override async up(): Promise<void> {
    // direction belongs to the transaction: a category may have none (null)
    this.addSql('alter table categories alter column is_expense drop not null');
  }
}
