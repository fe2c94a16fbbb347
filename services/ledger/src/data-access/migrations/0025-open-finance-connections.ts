import { Migration } from '@mikro-orm/migrations';

export class OpenFinanceConnections extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table connections drop constraint if exists connections_status_check');
    this.addSql(`alter table connections
      add constraint connections_status_check
        check (status in ('AWAITING_AUTHORISATION', 'ACTIVE', 'EXPIRED', 'REVOKED', 'FAILED')),
      -- null for a connection made by a JSON import; else the institution of the configuration
      add column institution_id text,
      add column consent_id text,
      add column consent_expires_at timestamptz(3),
      -- sha256 of the authorization's state: the public callback finds the connection by it, once
      add column state_hash text,
      -- AES-256-GCM (docs/open-banking.md): the PKCE verifier and nonce while authorising, then the refresh token
      add column authorization_secret text,
      add column refresh_token text,
      add column authorization_url text,
      add column redirect_uri text,
      add column authorization_started_at timestamptz(3),
      add column last_synced_at timestamptz(3),
      add column last_sync_error text,
      add column last_import_job_id uuid,
      -- a running sync holds the connection until then (a second one does not start)
      add column sync_lease_until timestamptz(3),
      add column consent_revoked_at_institution timestamptz(3)`);
    this.addSql('create unique index connections_state_idx on connections (state_hash) where state_hash is not null');
    // an aggregator's webhook finds its connection by the item (no context: the item binds it)
    this.addSql(
      'create index connections_item_idx on connections (institution_id, consent_id) where consent_id is not null',
    );
    // the scheduler finds the connections due a sync by the time of their last one
    this.addSql(
      `create index connections_sync_due_idx on connections ((coalesce(last_synced_at, '-infinity'::timestamptz)), id)
       where status = 'ACTIVE' and institution_id is not null`,
    );
    // the revocation now reaches the institution: the table that recorded it for operators goes
    this.addSql('drop table if exists consent_revocations');
  }
}
