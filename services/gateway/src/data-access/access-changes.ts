import pg from 'pg';

export const ACCESS_CHANGED_CHANNEL = 'gateway_access_changed';

export interface AccessChangeHandlers {
  /** LISTEN is in place: from now on every committed change is announced. */
  onListening(): void;
  /** A key, license or membership changed (see migration 0002). */
  onChange(): void;
  /** The listening connection is gone: changes may be missed until `onListening` again. */
  onLost(): void;
}

/**
 * Keeps one PostgreSQL connection listening on the access-change channel, reconnecting with backoff; the
 * triggers of migration 0002 notify it in the committing transaction of any revocation.
 */
export class AccessChangeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private attempts = 0;

  private readonly databaseUrl: string;
  private readonly schema: string;
  private readonly handlers: AccessChangeHandlers;

  constructor(databaseUrl: string, schema: string, handlers: AccessChangeHandlers) {
    this.databaseUrl = databaseUrl;
    this.schema = schema;
    this.handlers = handlers;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: `finance-${this.schema}-listen`,
      keepAlive: true,
    });
    let lost = false;
    const onGone = () => {
      if (lost) return;
      lost = true;
      this.handlers.onLost();
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', onGone);
    client.on('end', onGone);
    client.on('notification', (message) => {
      if (message.channel === ACCESS_CHANGED_CHANNEL) this.handlers.onChange();
    });
    try {
      await client.connect();
      await client.query(`listen ${ACCESS_CHANGED_CHANNEL}`);
      if (this.stopped) {
        lost = true;
        await client.end();
        return;
      }
      this.client = client;
      this.attempts = 0;
      this.handlers.onListening();
    } catch {
      onGone();
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    this.attempts += 1;
    this.retry = setTimeout(
      () => {
        this.retry = null;
        void this.connect();
      },
      Math.min(this.attempts * 200, 2000),
    );
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.handlers.onLost();
    await client?.end().catch(() => undefined);
  }
}
