import { Migration } from '@mikro-orm/migrations';

/** The daily announcements find the bills whose closing or due date came, and are not announced yet, by index. */
export class AnnouncementIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index bills_closed_unannounced_idx on bills (closing_date) where closed_event_at is null');
    this.addSql('create index bills_overdue_unannounced_idx on bills (due_date) where overdue_event_at is null');
  }
}
