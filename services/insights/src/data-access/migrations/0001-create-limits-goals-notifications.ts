import { Migration } from '@mikro-orm/migrations';

export class CreateLimitsGoalsNotifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table spending_limits (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      title text not null,
      amount bigint not null check (amount > 0),
      category_id uuid not null,
      subcategory_id uuid,
      frequency text not null check (frequency in ('DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'BIMONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL')),
      start_date date not null,
      notification_percentage int not null check (notification_percentage between 1 and 100),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    // the worker looks limits up by context and category
    this.addSql(
      'create index spending_limits_context_idx on spending_limits (coalesce(profile_id, user_id), category_id, id)',
    );
    this.addSql(`create table goals (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      title text not null,
      amount bigint not null check (amount > 0),
      deadline date not null,
      image text,
      is_monthly boolean not null default false,
      home_card_closed boolean not null default false,
      category_id uuid,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index goals_context_idx on goals (coalesce(profile_id, user_id), id)');
    this.addSql(`create table goal_values (
      id uuid primary key,
      goal_id uuid not null references goals (id) on delete cascade,
      date date not null,
      value bigint not null check (value > 0),
      is_expense boolean not null,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql('create index goal_values_goal_idx on goal_values (goal_id, date, id)');
    this.addSql(`create table goal_reminders (
      id uuid primary key,
      goal_id uuid not null unique references goals (id) on delete cascade,
      user_id uuid not null,
      amount bigint not null check (amount > 0),
      frequency text not null check (frequency = 'MONTHLY'),
      start_date date not null,
      end_date date,
      last_notification timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    this.addSql(`create table notifications (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      kind text not null check (kind in ('SPENDING_LIMIT_WARNING', 'SPENDING_LIMIT_EXCEEDED', 'GOAL_REMINDER')),
      title text not null,
      message text not null,
      data jsonb not null,
      dedupe_key text not null,
      read_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    // one notification per level per limit window and per reminder month, whatever the redeliveries
    this.addSql('create unique index notifications_dedupe_idx on notifications (dedupe_key)');
    this.addSql('create index notifications_context_idx on notifications (coalesce(profile_id, user_id), id desc)');
  }
}
