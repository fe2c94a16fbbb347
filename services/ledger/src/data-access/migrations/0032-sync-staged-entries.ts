import { Migration } from '@mikro-orm/migrations';

export class SyncStagedEntries extends Migration {
  override async up(): Promise<void> {
    // a sync's entries, page by page as the institution answers (docs/open-banking.md, "Syncs"); its import reads
    // them back in batches and deletes them once done
    this.addSql(`create table sync_staged_entries (
      sync_id uuid not null,
      seq int not null,
      holder text not null,
      key text not null,
      entry jsonb not null,
      -- the seq of the first entry of its holder and id: a bank's repeated id is read back in one batch
      first_seq int,
      created_at timestamptz(3) not null default now(),
      primary key (sync_id, seq)
    )`);
    this.addSql('create index sync_staged_entries_holder_key_idx on sync_staged_entries (sync_id, holder, key)');
    this.addSql('create index sync_staged_entries_order_idx on sync_staged_entries (sync_id, first_seq, seq)');
    // a sync that died before its import took them: swept by age
    this.addSql('create index sync_staged_entries_age_idx on sync_staged_entries (created_at)');
  }
}
