import { Migration } from '@mikro-orm/migrations';

export class CreateInvestments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table investment_positions (
      id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      connection_id text not null,
      investment_id text not null,
      name text not null,
      bank_name text not null,
      type text not null,
      subtype text,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    )`);
    // the bank's id is unique per context: a re-import updates the position instead of adding one
    this.addSql(
      'create unique index investment_positions_context_investment_uq on investment_positions ((coalesce(profile_id, user_id)), investment_id)',
    );
    this.addSql(`create table investment_snapshots (
      position_id uuid not null references investment_positions (id) on delete cascade,
      date date not null,
      balance_cents bigint not null,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      primary key (position_id, date)
    )`);
    // the report finds the context's snapshot days by date
    this.addSql('create index investment_snapshots_date_idx on investment_snapshots (date, position_id)');
    this.addSql(`create table investment_daily_yields (
      position_id uuid not null references investment_positions (id) on delete cascade,
      date date not null,
      yield_cents bigint not null,
      previous_date date not null check (previous_date < date),
      balance_cents bigint not null,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      primary key (position_id, date)
    )`);
  }
}
