import { Migration } from '@mikro-orm/migrations';

/** The horizon's hourly run finds the series due through the date of their next occurrence. */
export class RecurrenceDueDates extends Migration {
  override async up(): Promise<void> {
    // null: the next run works the date out (every series, once, after this lands; a series an edit moved)
    this.addSql('alter table recurrence_series add column next_date date');
    this.addSql(
      `create index recurrence_series_due_idx on recurrence_series ((coalesce(next_date, '-infinity'::date)), series_id)
       where not ended`,
    );
    this.addSql('drop index if exists recurrence_series_open_idx');
  }
}
