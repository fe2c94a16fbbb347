import { Migration } from '@mikro-orm/migrations';

export class ConnectionSyncOutcome extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table connections
      -- sealed (SecretBox): the CPF the consent was given for; an entry whose other party has it is the holder's own money
      add column holder_document text,
      -- the records the last sync left out, each with its reason (the first ones), and how many
      add column last_sync_skipped jsonb not null default '[]',
      add column last_sync_skipped_count int not null default 0`);
  }
}
