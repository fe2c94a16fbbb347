import { OutboxRelay } from '@finance/shared/queue/outbox';
import { Redis } from 'ioredis';
import { freePort } from '../../../test/support/free-port.ts';
import { merchantTransaction } from '../../../test/support/merchant-transactions.ts';
import { DisposableRedis } from '../../../test/support/redis-server.ts';
import { TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

/** A system category (migration 0005's fixed ids). */
const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';

/** An open-banking import of one account through a connection. */
const oneAccountImport = (connectionId: string) => ({
  connection: { id: connectionId, institution: 'Banco Teste' },
  accounts: [
    { external_id: 'acc-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1000 },
  ],
  credit_cards: [],
  transactions: [],
  investments: [],
});

describe('account.created travels through the outbox to its BullMQ consumer', () => {
  let redis: DisposableRedis;
  let stack: TestStack;

  beforeAll(async () => {
    redis = new DisposableRedis(await freePort());
    await redis.start();
    stack = await TestStack.start({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await redis.start().catch(() => undefined);
    await stack?.stop();
    await redis.stop();
  });

  const consumed = (accountId: string) =>
    stack.sql<{ n: number }>(
      `select count(*)::int as n from insights.processed_events p
         join ledger.outbox_events o on o.id = p.event_id
        where p.type = 'account.created' and o.payload -> 'data' ->> 'account_id' = $1`,
      [accountId],
    );

  it('when an account is created, then insights consumes its event once', async () => {
    const tenant = await stack.tenant();
    const account = (await tenant.api.post('/v1/accounts', { name: 'Evento', logo: '341' })).body;
    const [event] = await stack.sql<{ payload: any }>(
      `select payload from ledger.outbox_events where payload -> 'data' ->> 'account_id' = $1`,
      [account.id],
    );
    expect(event.payload).toMatchObject({
      type: 'account.created',
      context: { user_id: tenant.userId, profile_id: null },
      data: { account_id: account.id, name: 'Evento', type: 'PERSONAL_BANK' },
    });
    await waitFor(async () => (await consumed(account.id))[0].n === 1);
  });

  it("when a relay claims rows, then every service's outbox leaves room in its pages for the claim's update to be HOT", async () => {
    const tables = await stack.sql<{ schema: string; options: string[] }>(
      `select n.nspname as schema, c.reloptions as options from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relname = 'outbox_events' and n.nspname in ('ledger', 'billing', 'insights') order by 1`,
    );
    expect(tables).toEqual(['billing', 'insights', 'ledger'].map((schema) => ({ schema, options: ['fillfactor=70'] })));
  });

  it("when events are written, then every service's outbox keeps each payload as its text (json), compressed with lz4", async () => {
    const columns = await stack.sql<{ schema: string; type: string; compression: string }>(
      `select n.nspname as schema, format_type(a.atttypid, a.atttypmod) as type, a.attcompression as compression
         from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where c.relname = 'outbox_events' and a.attname = 'payload' and n.nspname in ('ledger', 'billing', 'insights')
        order by 1`,
    );
    expect(columns).toEqual(
      ['billing', 'insights', 'ledger'].map((schema) => ({ schema, type: 'json', compression: 'l' })),
    );
  });

  it('when Redis is down, then the account is still created and its event is delivered once Redis is back', async () => {
    const tenant = await stack.tenant();
    await redis.stop();
    const started = Date.now();
    const response = await tenant.api.post('/v1/accounts', { name: 'Sem Redis', logo: '260' });
    expect(response.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
    const accountId = response.body.id;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pending = await stack.sql<{ published_at: Date | null }>(
      `select published_at from ledger.outbox_events where payload -> 'data' ->> 'account_id' = $1`,
      [accountId],
    );
    expect(pending).toEqual([{ published_at: null }]);
    expect((await consumed(accountId))[0].n).toBe(0);

    await redis.start();
    await waitFor(async () => (await consumed(accountId))[0].n === 1, 30_000, 200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await consumed(accountId))[0].n).toBe(1);
  });

  it('when Redis is down, then an import is accepted as a waiting job and runs once Redis is back', async () => {
    const tenant = await stack.tenant();
    await redis.stop();
    const accepted = await tenant.api.post('/v1/open-banking/imports', oneAccountImport('conn-outage'));
    expect(accepted.status).toBe(202);
    expect(accepted.body.job).toMatchObject({ kind: 'IMPORT', state: 'waiting' });
    await redis.start();
    const job = await waitFor(
      async () => {
        const read = await tenant.api.get(`/v1/jobs/${accepted.body.job.id}`);
        return read.body.state === 'completed' ? read.body : undefined;
      },
      30_000,
      200,
    );
    expect(job.result.accounts).toMatchObject({ received: 1, created: 1 });
  });

  it('when Redis is slow to take a batch, then the relay holds no lock on its rows meanwhile (rule 9) and marks them sent once Redis answers', async () => {
    const ledger = stack.service('ledger').runtime;
    // this test's relay is the only one sending the ledger's rows
    await ledger.outbox?.stop();
    const admin = new Redis(redis.url);
    try {
      const tenant = await stack.tenant();
      const account = (await tenant.api.post('/v1/accounts', { name: 'Redis lento', logo: '341' })).body;
      const [row] = await stack.sql<{ id: string }>(
        `select id from ledger.outbox_events where payload -> 'data' ->> 'account_id' = $1`,
        [account.id],
      );
      await admin.call('client', 'pause', '1500', 'write');
      const relay = new OutboxRelay({
        orm: ledger.orm,
        service: 'ledger',
        queues: ledger.queues.get,
        logger: ledger.logger,
      });
      const sending = relay.relayOnce();
      await waitFor(
        async () =>
          (await stack.sql('select 1 from ledger.outbox_events where id = $1 and claimed_until > now()', [row.id]))
            .length === 1,
      );
      // the row is claimed and its jobs wait on Redis: a lock on it would fail this at once (55P03)
      await expect(
        stack.sql('select id from ledger.outbox_events where id = $1 for update nowait', [row.id]),
      ).resolves.toEqual([{ id: row.id }]);
      expect(await sending).toBeGreaterThanOrEqual(1);
      const [sent] = await stack.sql<{ published_at: Date | null; claimed_until: Date | null }>(
        'select published_at, claimed_until from ledger.outbox_events where id = $1',
        [row.id],
      );
      expect(sent.published_at).not.toBeNull();
      expect(sent.claimed_until).toBeNull();
      await waitFor(async () => (await consumed(account.id))[0].n === 1);
    } finally {
      admin.disconnect();
      ledger.outbox?.start();
    }
  });

  it('when thousands of relayed rows wait for a vacuum, then one claim passes their dead index entries and marks them, so the next claims skip them', async () => {
    const ledger = stack.service('ledger').runtime;
    await ledger.outbox?.stop();
    try {
      const relay = new OutboxRelay({
        orm: ledger.orm,
        service: 'ledger',
        queues: ledger.queues.get,
        logger: ledger.logger,
      });
      while ((await relay.relayOnce()) > 0);
      // a vacuum would take the entries away instead of a claim marking them
      await stack.sql('alter table ledger.outbox_events set (autovacuum_enabled = false)');
      // rows relayed since the last vacuum: each leaves an entry of its unpublished version in the pending index
      await stack.sql(
        `insert into ledger.outbox_events (id, type, payload)
         select gen_random_uuid(), 'test.relayed', '{}'::jsonb from generate_series(1, 3000)`,
      );
      await stack.sql(`update ledger.outbox_events set published_at = now() where type = 'test.relayed'`);
      await stack.sql('create extension if not exists pageinspect');
      const markedDead = async () =>
        (
          await stack.sql<{ n: number }>(
            `select count(*)::int as n
               from generate_series(1, pg_relation_size('ledger.outbox_events_pending_idx') / 8192 - 1) page,
                    bt_page_items('ledger.outbox_events_pending_idx', page::int)
              where dead`,
          )
        )[0].n;
      const before = await markedDead();
      // an entry is marked once no open snapshot can still see its row (another backend's may, for a moment)
      await waitFor(async () => (await relay.relayOnce()) === 0 && (await markedDead()) - before >= 3000, 30_000);
    } finally {
      await stack.sql('alter table ledger.outbox_events reset (autovacuum_enabled)');
      ledger.outbox?.start();
    }
  });

  it('when five relays pass over the same pending rows at once, then each row is claimed and sent by exactly one of them', async () => {
    const ledger = stack.service('ledger').runtime;
    await ledger.outbox?.stop();
    try {
      const tenant = await stack.tenant();
      const accounts = await Promise.all(
        Array.from({ length: 30 }, (_, i) => tenant.api.post('/v1/accounts', { name: `Conta ${i}`, logo: '341' })),
      );
      expect(accounts.map((response) => response.status)).toEqual(accounts.map(() => 201));
      const ids = accounts.map((response) => response.body.id as string);
      const relays = Array.from(
        { length: 5 },
        () =>
          new OutboxRelay({
            orm: ledger.orm,
            service: 'ledger',
            queues: ledger.queues.get,
            logger: ledger.logger,
            batchSize: 4,
          }),
      );
      // every relay passes until it finds nothing left; the passes sum to the rows there were
      const sent = await Promise.all(
        relays.map(async (relay) => {
          let total = 0;
          for (let got = await relay.relayOnce(); got > 0; got = await relay.relayOnce()) total += got;
          return total;
        }),
      );
      const rows = await stack.sql<{ attempts: number; published: boolean }>(
        `select attempts, published_at is not null as published from ledger.outbox_events
          where payload -> 'data' ->> 'account_id' = any($1)`,
        [ids],
      );
      expect(rows).toHaveLength(ids.length);
      expect(rows.every((row) => row.published && row.attempts === 1)).toBe(true);
      expect(sent.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(ids.length);
      for (const id of ids) await waitFor(async () => (await consumed(id))[0].n === 1);
    } finally {
      ledger.outbox?.start();
    }
  });

  it('when a pass claims a full batch, then the relay goes on at once, not at its next poll', async () => {
    const ledger = stack.service('ledger').runtime;
    await ledger.outbox?.stop();
    // rows of a type no queue takes: claimed and marked sent, no job
    await stack.sql(
      `insert into ledger.outbox_events (id, type, payload, created_at)
       select gen_random_uuid(), 'test.full-batches', '{}'::json, now() + n * interval '1 ms' from generate_series(1, 7) n`,
    );
    // a relay polling once a minute, two rows a pass: four passes within the test's wait
    const polling = new OutboxRelay({
      orm: ledger.orm,
      service: 'ledger',
      queues: ledger.queues.get,
      logger: ledger.logger,
      batchSize: 2,
      intervalMs: 60_000,
    });
    try {
      polling.start();
      const unsent = async () =>
        (
          await stack.sql<{ n: number }>(
            `select count(*)::int as n from ledger.outbox_events where type = 'test.full-batches' and published_at is null`,
          )
        )[0].n;
      expect(await waitFor(async () => (await unsent()) === 0, 5_000)).toBe(true);
    } finally {
      await polling.stop();
      ledger.outbox?.start();
    }
  });
});

describe('a command that queues a job wakes the outbox relay of its process', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // the relay polls once a minute here: only the wake-up can send the job within the test
    stack = await TestStack.start({ serviceEnv: { ledger: { OUTBOX_POLL_MS: '60000' } } });
  });
  afterAll(() => stack?.stop());

  it('when an import is accepted, then the answer waits for its job and gives it finished, long before the relay would have polled again', async () => {
    const tenant = await stack.tenant();
    const started = Date.now();
    const answered = await tenant.api.post('/v1/open-banking/imports', oneAccountImport('conn-wake'));
    // the answer waits up to 5 s for the job before a 202
    expect(answered.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answered.body.job).toMatchObject({ kind: 'IMPORT', state: 'completed' });
    expect(answered.body.job.result.accounts).toMatchObject({ received: 1, created: 1 });
  });

  it('when a rule is applied to existing transactions, then the answer waits for its job and gives the exact count', async () => {
    const tenant = await stack.tenant();
    const account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    const [sourceId, ...matching] = await Promise.all(
      [1, 2, 3].map(() => merchantTransaction(stack, tenant.api, { accountId: account, merchantName: 'Padaria Sol' })),
    );
    const started = Date.now();
    const response = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: sourceId,
      category_id: ALIMENTACAO,
      apply_to_existing: true,
    });
    expect(response.status).toBe(201);
    // the answer waits up to 5 s for the job: done and counted exactly, long before the relay's next poll
    expect(Date.now() - started).toBeLessThan(5_000);
    const job = (await tenant.api.get(`/v1/jobs/${response.body.job_id}`)).body;
    expect(job).toMatchObject({ state: 'completed', result: { updated_count: response.body.updated_existing_count } });
    expect(response.body.updated_existing_count).toBeGreaterThanOrEqual(matching.length);
  });
});
