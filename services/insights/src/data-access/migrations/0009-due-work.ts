import { Migration } from '@mikro-orm/migrations';

/**
 * The scheduled runs find what is due through an index: limits by the instant of their next check (their context's
 * next midnight), reminders by their next due day, positions by pending yields.
 */
export class DueWork extends Migration {
  override async up(): Promise<void> {
    // null: the next run checks it (every limit, once, after this lands)
    this.addSql('alter table spending_limits add column next_check_at timestamptz(3)');
    this.addSql(
      `create index spending_limits_check_idx on spending_limits ((coalesce(next_check_at, '-infinity'::timestamptz)), id)`,
    );
    // null: the next run works the day out (a new or changed reminder); infinity: past its end
    this.addSql('alter table goal_reminders add column next_due_on date');
    this.addSql(
      `create index goal_reminders_due_idx on goal_reminders ((coalesce(next_due_on, '-infinity'::date)), id)`,
    );
    // positions whose snapshots changed without their daily yields; existing ones are checked once
    this.addSql('alter table investment_positions add column yields_pending boolean not null default false');
    this.addSql('update investment_positions set yields_pending = true');
    this.addSql('create index investment_positions_pending_idx on investment_positions (id) where yields_pending');
  }
}
