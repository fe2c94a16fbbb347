import { Migration } from '@mikro-orm/migrations';

export class ConnectionNotifications extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table notifications drop constraint notifications_kind_check');
    this.addSql(`alter table notifications add constraint notifications_kind_check
      check (kind in ('SPENDING_LIMIT_WARNING', 'SPENDING_LIMIT_EXCEEDED', 'GOAL_REMINDER', 'WEBHOOK_DISABLED',
                      'CONNECTION_REVOKED', 'CONNECTION_EXPIRED'))`);
  }
}
