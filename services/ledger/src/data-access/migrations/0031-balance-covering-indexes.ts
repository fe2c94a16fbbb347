import { Migration } from '@mikro-orm/migrations';

/**
 * The balance reads answered from their indexes alone: an account's net also tests `currency`, and a card's held
 * limit sums its bills' rows by columns the bill index did not hold, so each row cost a visit to its table page,
 * pages shared with every other context's rows (among 2,000 other contexts, 1.55–1.96× the read alone).
 */
export class BalanceCoveringIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists transactions_account_idx');
    this.addSql(
      `create index transactions_account_idx on transactions (account_id)
         include (amount, is_expense, paid, show_on_balance, currency) where deleted_at is null`,
    );
    this.addSql('drop index if exists transactions_bill_idx');
    this.addSql(
      `create index transactions_bill_idx on transactions (bill_id, date, id)
         include (context_id, amount, is_expense, is_bill_payment, type, operation_type)
         where bill_id is not null and deleted_at is null`,
    );
  }
}
