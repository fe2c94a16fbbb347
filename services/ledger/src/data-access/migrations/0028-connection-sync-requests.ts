import { Migration } from '@mikro-orm/migrations';

export class ConnectionSyncRequests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table connections
      -- a sync job is queued and has not started: another request for one is not queued again
      add column sync_queued_at timestamptz(3),
      -- when an aggregator's webhook about the item last acted: it acts at most once per interval
      add column webhook_acted_at timestamptz(3)`);
  }
}
