import { Migration } from '@mikro-orm/migrations';

export class AddRecurrenceEnd extends Migration {
  override async up(): Promise<void> {
    // "delete this and next" from a date beyond the horizon ends the series there, not at once
    this.addSql('alter table recurrence_series add column ends_before date');
  }
}
