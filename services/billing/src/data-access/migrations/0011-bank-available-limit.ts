import { Migration } from '@mikro-orm/migrations';

export class BankAvailableLimit extends Migration {
  override async up(): Promise<void> {
    // what the bank last said is available of an imported card's limit (docs/decisions.md §8)
    this.addSql('alter table credit_cards add column bank_available_limit bigint');
  }
}
