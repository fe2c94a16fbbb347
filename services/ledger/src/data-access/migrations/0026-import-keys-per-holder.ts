import { Migration } from '@mikro-orm/migrations';

export class ImportKeysPerHolder extends Migration {
  override async up(): Promise<void> {
    // a bank's ids are per account or card (two accounts may share one), and one id may name several entries with
    // different content: a key is (source, holder, key), and several entries may carry it
    this.addSql(`alter table import_keys add column holder_id uuid,
      -- false once the entry was another holder's or source's first: this key's data no longer rewrites it
      add column owns boolean not null default true`);
    this.addSql(`update import_keys k set holder_id = coalesce(t.account_id, t.credit_card_id)
      from transactions t where t.id = k.transaction_id`);
    this.addSql('alter table import_keys alter column holder_id set not null');
    this.addSql('drop index if exists import_keys_key_idx');
    this.addSql(
      'create unique index import_keys_key_idx on import_keys (context_id, source, holder_id, key, transaction_id)',
    );
    // a sync reads again what its connection still knows only as pending or scheduled
    this.addSql("create index import_keys_open_idx on import_keys (context_id, source) where status <> 'BOOKED'");
    // the import keys hold a source's ids now; the bank's id on the row repeats freely
    this.addSql('drop index if exists transactions_external_idx');
    // the user undid an automatic match (a bill payment, a transfer, an investment move): no rule links it again
    this.addSql('alter table transactions add column unlinked_at timestamptz(3)');
    // the entries a bill payment or an own transfer may pair with: the context's live entries by amount and day
    this.addSql(
      'create index transactions_amount_idx on transactions (context_id, amount, date) where deleted_at is null',
    );
  }
}
