import { CONTEXT_ID_COLUMN } from '@finance/shared/db/context-scope';
import { Migration } from '@mikro-orm/migrations';

export class CashFlowAlerts extends Migration {
  override async up(): Promise<void> {
    // one row per context whose forecast is watched: when its alerts are worked out next (null: as soon as can be),
    // and how many changes marked it (an evaluation that read an older count leaves it due)
    this.addSql(`create table cash_flow_watches (
      user_id uuid not null,
      profile_id uuid,
      ${CONTEXT_ID_COLUMN},
      check_at timestamptz(3),
      marks bigint not null default 0,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql('create unique index cash_flow_watches_context_idx on cash_flow_watches (context_id)');
    this.addSql(
      `create index cash_flow_watches_due_idx on cash_flow_watches ((coalesce(check_at, '-infinity'::timestamptz)), context_id)`,
    );
    // each account's episode: short since its alert, until the projection recovers; the count names each episode
    this.addSql(`create table cash_flow_alerts (
      user_id uuid not null,
      profile_id uuid,
      ${CONTEXT_ID_COLUMN},
      account_id uuid not null,
      short boolean not null default false,
      episode int not null default 0,
      shortfall_date date,
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql('create unique index cash_flow_alerts_account_idx on cash_flow_alerts (context_id, account_id)');
    this.addSql('alter table notifications drop constraint notifications_kind_check');
    this.addSql(`alter table notifications add constraint notifications_kind_check
      check (kind in ('SPENDING_LIMIT_WARNING', 'SPENDING_LIMIT_EXCEEDED', 'GOAL_REMINDER', 'WEBHOOK_DISABLED',
                      'CONNECTION_REVOKED', 'CONNECTION_EXPIRED', 'CASH_FLOW_SHORTFALL'))`);
  }
}
