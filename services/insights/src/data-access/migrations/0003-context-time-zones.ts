import { Migration } from '@mikro-orm/migrations';

export class CreateContextTimeZones extends Migration {
  override async up(): Promise<void> {
    // the zone each context chose in ledger (event `context.time_zone_changed`), for the daily jobs that run
    // per context day; absent = America/Sao_Paulo. Reads ask ledger live instead.
    this.addSql(`create table context_time_zones (
      context_id uuid primary key,
      user_id uuid not null,
      profile_id uuid,
      time_zone text not null,
      changed_at timestamptz not null
    )`);
  }
}
