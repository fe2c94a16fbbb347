import { Migration } from '@mikro-orm/migrations';

/**
 * A deleted card's bills are never rolled over nor announced: they leave the indexes of due work, so a scheduled
 * run no longer reads them (and discards them) every time.
 */
export class BillsOfDeletedCards extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table bills add column card_deleted_at timestamptz(3)');
    this.addSql(`update bills b set card_deleted_at = c.deleted_at
                   from credit_cards c where c.id = b.credit_card_id and c.deleted_at is not null`);
    this.addSql('drop index if exists bills_rollover_idx');
    this.addSql('drop index if exists bills_closed_unannounced_idx');
    this.addSql('drop index if exists bills_overdue_unannounced_idx');
    this.addSql(
      'create index bills_rollover_idx on bills (due_date) where rolled_over_at is null and card_deleted_at is null',
    );
    this.addSql(`create index bills_closed_unannounced_idx on bills (closing_date)
                   where closed_event_at is null and card_deleted_at is null`);
    this.addSql(`create index bills_overdue_unannounced_idx on bills (due_date)
                   where overdue_event_at is null and card_deleted_at is null`);
  }
}
