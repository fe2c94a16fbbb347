import { Migration } from '@mikro-orm/migrations';

export class CreateCardCalendars extends Migration {
  override async up(): Promise<void> {
    // the version of each card's bill calendar the ledger last applied (docs/architecture.md rule 9): a purchase
    // billed under an older version is re-billed before it is written
    this.addSql(
      'create table card_calendars (credit_card_id uuid primary key, version integer not null default 0, updated_at timestamptz(3) not null default now())',
    );
  }
}
