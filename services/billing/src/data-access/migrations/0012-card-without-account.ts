import { Migration } from '@mikro-orm/migrations';

export class CardWithoutAccount extends Migration {
  override async up(): Promise<void> {
    // a card a bank shared alone, in a context with no account yet: it waits for one (docs/decisions.md §8)
    this.addSql('alter table credit_cards alter column account_id drop not null');
  }
}
