import { Migration } from '@mikro-orm/migrations';

/**
 * When billing's daily job announced a bill closed or overdue (events for webhooks). Bills already past
 * those dates when this lands count as announced, so the first run does not replay history.
 */
export class AddBillEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table bills add column closed_event_at timestamptz(3), add column overdue_event_at timestamptz(3)',
    );
    this.addSql('update bills set closed_event_at = now() where closing_date <= current_date');
    this.addSql('update bills set overdue_event_at = now() where due_date < current_date');
  }
}
