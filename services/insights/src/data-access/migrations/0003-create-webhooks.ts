import { Migration } from '@mikro-orm/migrations';

/** Webhooks of a context, one delivery per webhook and event, and every attempt of a delivery. */
export class CreateWebhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhooks (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      url text not null,
      events text[] not null,
      description text,
      secret text not null,
      status text not null check (status in ('ENABLED', 'DISABLED')),
      consecutive_failures int not null default 0,
      disabled_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index webhooks_context_idx on webhooks ((coalesce(profile_id, user_id)), id)');
    this.addSql(`create table webhook_deliveries (
      id uuid primary key,
      webhook_id uuid not null references webhooks (id) on delete cascade,
      event_id uuid not null,
      event_type text not null,
      body text not null,
      status text not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
      attempts int not null default 0,
      last_status_code int,
      last_error text,
      next_attempt_at timestamptz(3),
      delivered_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      unique (webhook_id, event_id)
    )`);
    this.addSql('create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id desc)');
    this.addSql(`create table webhook_delivery_attempts (
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      attempt int not null,
      manual boolean not null,
      status_code int,
      error text,
      duration_ms int not null,
      created_at timestamptz(3) not null,
      primary key (delivery_id, attempt)
    )`);
    this.addSql('alter table notifications drop constraint notifications_kind_check');
    this.addSql(`alter table notifications add constraint notifications_kind_check
      check (kind in ('SPENDING_LIMIT_WARNING', 'SPENDING_LIMIT_EXCEEDED', 'GOAL_REMINDER', 'WEBHOOK_DISABLED'))`);
  }
}
