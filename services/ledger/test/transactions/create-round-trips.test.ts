import { runPrepared } from '@finance/shared/db/sql';
import { type DomainEvent, EVENT_BATCH_JOB, QUEUES } from '@finance/shared/queue/catalogue';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { newAccount, newCard } from '../../../../test/support/transactions.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';

describe('transactions: a plain create is one statement with its event', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;
  let ledgerSql: string[] | null = null;
  let insightsSql: string[] | null = null;

  beforeAll(async () => {
    stack = await TestStack.start({
      onQuery: (service, sql) => {
        if (service === 'ledger' && ledgerSql) ledgerSql.push(sql.split(String.fromCharCode(27)).join(''));
        if (service === 'insights' && insightsSql) insightsSql.push(sql.split(String.fromCharCode(27)).join(''));
      },
    });
    tenant = await stack.tenant();
    accountId = await newAccount(tenant.api, 10000);
  });
  afterAll(() => stack?.stop());

  const body = () => ({ amount: 4590, date: '2026-03-10', is_expense: true, title: 'Café', account_id: accountId });
  const outboxOf = (id: string) =>
    stack.sql<{ id: string }>(
      `select id from ledger.outbox_events where payload::jsonb->'data'->'transactions' @> jsonb_build_array(jsonb_build_object('id', $1::text))`,
      [id],
    );

  it('when an entry with only its account is created, then the ledger runs one statement: account check, row and outbox event', async () => {
    ledgerSql = [];
    const response = await tenant.api.post('/v1/transactions', body());
    const statements = ledgerSql;
    ledgerSql = null;
    expect(response.status).toBe(201);
    // the outbox relay polls meanwhile: only the request's statements touch accounts or transactions
    const own = statements.filter((sql) => /\b(from accounts|into transactions)\b/.test(sql));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/insert into outbox_events/);
    // a prepared statement: its values travel as parameters, so PostgreSQL plans it once per connection
    expect(own[0]).toMatch(/where id = \$1 and deleted_at is null/);
    expect(own[0]).not.toContain(accountId);
    const [event] = await outboxOf(response.body.id);
    expect(event).toBeDefined();
    // the event still reaches its consumer
    await waitFor(async () =>
      (await stack.sql('select 1 from insights.processed_events where event_id = $1', [event.id])).length === 1
        ? true
        : undefined,
    );
  });

  it('when a hot statement runs outside a transaction, then PostgreSQL keeps it prepared; inside one, it runs as text', async () => {
    const em = stack.service('ledger').runtime.orm.em.fork();
    const marker = `select ?::int + 1 as next -- ${crypto.randomUUID()}`;
    expect(await runPrepared(em, marker, [41])).toEqual([{ next: 42 }]);
    // the pool hands out its connections in turn: ask each until one answers that it holds the statement
    const held = await waitFor(async () => {
      await runPrepared(em, marker, [1]);
      const rows = await runPrepared<{ statement: string }>(
        em,
        'select statement from pg_prepared_statements where statement like ?',
        [`%${marker.slice(-36)}%`],
      );
      return rows.length ? rows : undefined;
    });
    expect(held[0].statement).toContain('$1::int + 1');
    ledgerSql = [];
    const inside = await em.transactional((tx) => runPrepared(tx, marker, [1]));
    const statements = ledgerSql;
    ledgerSql = null;
    expect(inside).toEqual([{ next: 2 }]);
    // through the ORM, which sends it as text with the value inlined (its log shows the `?` form)
    expect(statements.filter((sql) => sql.includes('+ 1 as next')).map((sql) => sql.includes('?::int'))).toEqual([
      true,
    ]);
  });

  it('when an event touches no spending limit, then insights records it with one statement and no transaction', async () => {
    insightsSql = [];
    const response = await tenant.api.post('/v1/transactions', body());
    expect(response.status).toBe(201);
    const [event] = await waitFor(async () => {
      const rows = await outboxOf(response.body.id);
      return rows.length ? rows : undefined;
    });
    await waitFor(async () =>
      (await stack.sql('select 1 from insights.processed_events where event_id = $1', [event.id])).length === 1
        ? true
        : undefined,
    );
    const statements = insightsSql;
    insightsSql = null;
    const count = (pattern: RegExp) => statements.filter((sql) => pattern.test(sql)).length;
    expect(count(/into processed_events/)).toBe(1);
    // insights' outbox relay polls meanwhile, each poll a short transaction of its claim (one `set local` each):
    // the event itself opened none
    expect(count(/\[query\] \S*begin$/)).toBe(count(/set local enable_bitmapscan = off/));
  });

  it('when forty entries are created at once, then their events reach insights in batches: fewer jobs and inbox statements than events', async () => {
    insightsSql = [];
    const responses = await Promise.all(Array.from({ length: 40 }, () => tenant.api.post('/v1/transactions', body())));
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(201));
    const ids = responses.map((response) => response.body.id as string);
    const recorded = async () =>
      (
        await stack.sql<{ n: number }>(
          `select count(*)::int as n from ledger.outbox_events o
             join insights.processed_events p on p.event_id = o.id and p.consumer = 'insights'
            where o.payload->'data'->'transactions'->0->>'id' = any($1::text[])`,
          [ids],
        )
      )[0].n;
    await waitFor(async () => ((await recorded()) === 40 ? true : undefined));
    const statements = insightsSql;
    insightsSql = null;
    // one statement per relayed batch (the relay polls every 200 ms): far fewer than one per event
    const inboxStatements = statements.filter((sql) => /into processed_events/.test(sql)).length;
    expect(inboxStatements).toBeGreaterThan(0);
    expect(inboxStatements).toBeLessThan(20);
  });

  it('when an event with nothing to apply is delivered ten more times at once, then insights records it once', async () => {
    const response = await tenant.api.post('/v1/transactions', body());
    expect(response.status).toBe(201);
    const [event] = await waitFor(async () => {
      const rows = await stack.sql<{ id: string; payload: unknown }>(
        `select id, payload from ledger.outbox_events where payload::jsonb->'data'->'transactions' @> jsonb_build_array(jsonb_build_object('id', $1::text))`,
        [response.body.id],
      );
      return rows.length ? rows : undefined;
    });
    const recorded = async () =>
      (
        await stack.sql<{ n: number }>(
          "select count(*)::int as n from insights.processed_events where event_id = $1 and consumer = 'insights'",
          [event.id],
        )
      )[0].n;
    await waitFor(async () => ((await recorded()) === 1 ? true : undefined));
    const queue = stack.service('insights').runtime.queues.get(QUEUES.transactionChanges);
    // ten batches holding it, as ten relay passes after crashes between adding and marking would send them
    await queue.addBulk(
      Array.from({ length: 10 }, (_, index) => ({
        name: EVENT_BATCH_JOB,
        data: { events: [event.payload as DomainEvent] },
        opts: { jobId: `${event.id}-again-${index}` },
      })),
    );
    // a delivery that failed would sit in delayed (retries), never reaching zero
    await waitFor(async () => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
      return counts.waiting + counts.active + counts.delayed === 0 ? true : undefined;
    });
    expect(await recorded()).toBe(1);
    const failed = await queue.getFailed();
    expect(failed.filter((job) => job.id?.startsWith(`${event.id}-again`))).toEqual([]);
  });

  it("when the account is another context's, then 404 and neither the row nor an event is written", async () => {
    const other = await stack.tenant();
    const before = await stack.sql<{ n: number }>(
      'select (select count(*) from ledger.transactions)::int + (select count(*) from ledger.outbox_events)::int as n',
    );
    const response = await other.api.post('/v1/transactions', body());
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, message: 'Conta não encontrada (account_id)' });
    const after = await stack.sql<{ n: number }>(
      'select (select count(*) from ledger.transactions)::int + (select count(*) from ledger.outbox_events)::int as n',
    );
    expect(after[0].n).toBe(before[0].n);
  });

  it('when many plain creates race, then every row has exactly one event', async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, () => tenant.api.post('/v1/transactions', body())));
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(201));
    for (const response of responses) expect(await outboxOf(response.body.id)).toHaveLength(1);
  });

  it('when entries of every shape are created, then each answer is the record GET shows, keys in the same order', async () => {
    const card = await newCard(tenant.api, accountId);
    const category = await tenant.api.post('/v1/categories', { name: 'Mercado' });
    const shapes: Array<Record<string, unknown>> = [
      // one statement (PostgreSQL writes the record), then a transaction (references to check), then series
      { ...body(), title: 'Aspas " e \\ barra, acentuação, emoji 🧾', description: 'linha\nnova', paid: true },
      { ...body(), category_id: category.body.id },
      { ...body(), type: 'PARCELLED', installments: 3, is_full_amount: true, amount: 1000 },
      { ...body(), type: 'RECURRENT', frequency: 'WEEKLY' },
      { amount: 2500, date: '2026-03-12', is_expense: true, title: 'No cartão', credit_card_id: card },
    ];
    for (const [index, shape] of shapes.entries()) {
      const keyed: Record<string, string> = { 'idempotency-key': `shape-${index}-${Date.now()}` };
      for (const headers of [{}, keyed]) {
        const created = await tenant.api.request('POST', '/v1/transactions', { body: shape, headers });
        expect(created.status).toBe(201);
        const shown = await tenant.api.get(`/v1/transactions/${created.body.id}`);
        expect(JSON.stringify(created.body)).toBe(JSON.stringify(shown.body));
        if ('idempotency-key' in headers) {
          const replayed = await tenant.api.request('POST', '/v1/transactions', { body: shape, headers });
          expect(replayed.headers.get('idempotent-replayed')).toBe('true');
          expect(JSON.stringify(replayed.body)).toBe(JSON.stringify(created.body));
        }
      }
    }
  });
});
