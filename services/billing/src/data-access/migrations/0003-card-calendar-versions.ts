import { Migration } from '@mikro-orm/migrations';

export class AddCardCalendarVersions extends Migration {
  override async up(): Promise<void> {
    // the card's days as dated versions ([{from, closing_day, due_day}], oldest first; null = today's days for
    // every month), so a month never stored keeps the dates it had; and a counter bumped by every closing-day
    // change or deletion, which the ledger checks before writing a purchase billed under an older calendar
    this.addSql(
      'alter table credit_cards add column calendar jsonb, add column calendar_version integer not null default 0',
    );
  }
}
