import { setTimeout as sleep } from 'node:timers/promises';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { PluggyServer } from '../../../../test/support/pluggy-server.ts';
import { syncedImport } from '../../../../test/support/sandbox-bank.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';

/** The secret of the webhook URL this deployment gives Pluggy. */
const WEBHOOK_TOKEN = 'segredo-do-webhook-0123456789abcdef0123';

/**
 * Pluggy through `pluggy-sdk`, against a local server speaking the endpoints the SDK calls (verified against the
 * SDK's documented shapes, not the live service), through the gateway.
 */
describe('Pluggy connections', () => {
  let pluggy: PluggyServer;
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    pluggy = await new PluggyServer().start();
    stack = await TestStack.start({
      serviceEnv: {
        ledger: {
          PLUGGY_CLIENT_ID: 'finance-api-test',
          PLUGGY_CLIENT_SECRET: 'segredo-de-teste',
          PLUGGY_API_URL: pluggy.url,
          PLUGGY_WEBHOOK_URL: `https://api.example.com/v1/open-banking/pluggy/webhook?token=${WEBHOOK_TOKEN}`,
          PLUGGY_WEBHOOK_INTERVAL_MS: '60000',
        },
      },
    });
    tenant = await stack.tenant();
  });
  afterAll(async () => {
    await stack?.stop();
    await pluggy?.stop();
  });

  /** A connection to Pluggy completed with the item its widget made. */
  async function connected(api = tenant.api) {
    const created = await api.post('/v1/open-banking/connections', { institution_id: 'pluggy' });
    expect(created.status).toBe(201);
    const itemId = pluggy.itemFor(created.body.connect_token);
    const attached = await api.post(`/v1/open-banking/connections/${created.body.id}/item`, { item_id: itemId });
    expect(attached.status).toBe(200);
    return { id: created.body.id as string, itemId, attached: attached.body };
  }

  it('when a client connects through Pluggy Connect and sends the item, then the item’s accounts, card, transactions and investments are imported by the same rules; a second sync creates nothing', async () => {
    const institutions = await tenant.api.get('/v1/open-banking/institutions');
    expect(institutions.body.data).toEqual([{ id: 'pluggy', name: 'Pluggy', provider: 'pluggy' }]);
    const created = await tenant.api.post('/v1/open-banking/connections', { institution_id: 'pluggy' });
    expect(created.body).toMatchObject({
      institution_id: 'pluggy',
      status: 'AWAITING_AUTHORISATION',
      connect_token: expect.stringMatching(/^connect-/),
    });
    const itemId = pluggy.itemFor(created.body.connect_token);
    const attached = await tenant.api.post(`/v1/open-banking/connections/${created.body.id}/item`, { item_id: itemId });
    expect(attached.body).toMatchObject({ status: 'ACTIVE', institution: 'Banco Pluggy Teste' });
    expect(attached.body).not.toHaveProperty('connect_token');

    const first = await syncedImport(tenant.api, created.body.id);
    expect(first.job).toMatchObject({ state: 'completed' });
    expect(first.job.result).toMatchObject({
      accounts: { created: 1 },
      credit_cards: { created: 1 },
      // the bill's payment joins the account debit that made it: one entry
      transactions: { created: 26 },
      investments: { received: 1, snapshots: 1 },
    });
    const rows = await stack.sql<Record<string, string>>(
      `select external_id, amount, is_expense, merchant_cnpj, operation_type, credit_card_id, type, is_bill_payment,
         bill_id from ledger.transactions where connection_id = $1`,
      [created.body.id],
    );
    const row = (suffix: string) => rows.find((r) => r.external_id.endsWith(suffix)) as Record<string, unknown>;
    expect(row('-centavos')).toMatchObject({ amount: '10', is_expense: true, operation_type: 'PIX' });
    expect(row('-grande')).toMatchObject({ amount: '123456789', is_expense: false });
    expect(row('-mercado')).toMatchObject({ amount: '12345', merchant_cnpj: '23456789000106' });
    expect(row('-amazon')).toMatchObject({ amount: '27540', is_expense: true, credit_card_id: expect.any(String) });
    // Pluggy's bill payment is the account's debit; money to the owner's own account is a transfer
    expect(row('-fatura')).toMatchObject({ is_bill_payment: true, bill_id: expect.any(String), credit_card_id: null });
    expect(rows.filter((r) => r.is_bill_payment)).toHaveLength(1);
    expect(row('-propria')).toMatchObject({ type: 'TRANSFER' });
    const [card] = (await tenant.api.get('/v1/credit-cards')).body.data;
    expect(card).toMatchObject({ closing_date: '3', needs_closing_date_review: false, available_limit: 846_960 });
    // what the pipeline wrote of each mapped field: the source's status, installments, original amount and bill
    const written = await stack.sql<Record<string, any>>(
      `select t.external_id, t.original_amount, t.original_currency, t.bill_id, t.installments, t.installment_number,
              coalesce(t.connected_transaction_id, t.id) as series, k.status
       from ledger.transactions t join ledger.import_keys k on k.transaction_id = t.id where t.connection_id = $1`,
      [created.body.id],
    );
    const sent = (suffix: string) => written.find((tx) => tx.external_id.endsWith(suffix)) as Record<string, any>;
    expect(sent('-amazon')).toMatchObject({
      original_amount: '50.00',
      original_currency: 'USD',
      bill_id: expect.any(String),
    });
    expect(sent('-pendente')).toMatchObject({ status: 'PENDING' });
    expect(sent('-notebook-1')).toMatchObject({
      series: sent('-notebook-2').series,
      installment_number: 1,
      installments: 6,
    });
    const [{ payload }] = await stack.sql<{ payload: any }>(
      'select payload from ledger.open_banking_imports where job_id = $1',
      [first.connection.last_import_job_id],
    );
    expect(payload.investments[0].snapshots[0].balance_cents).toBe(1051237);

    expect((await tenant.api.post(`/v1/open-banking/connections/${created.body.id}/sync`)).status).toBe(202);
    const second = await syncedImport(tenant.api, created.body.id, first.connection.last_import_job_id);
    expect(second.job.result.transactions.created).toBe(0);
  });

  it('when Pluggy sends a transaction the import cannot take, then that sync fails naming it, nothing of it is imported and nothing stays staged', async () => {
    const owner = await stack.tenant();
    const created = await owner.api.post('/v1/open-banking/connections', { institution_id: 'pluggy' });
    const itemId = pluggy.itemFor(created.body.connect_token);
    // R$ 200 bilhões: past the largest amount an entry may hold
    pluggy.addBankTransaction(itemId, 'enorme', {
      date: new Date().toISOString(),
      type: 'CREDIT',
      amount: 200_000_000_000,
    });
    expect(
      (await owner.api.post(`/v1/open-banking/connections/${created.body.id}/item`, { item_id: itemId })).status,
    ).toBe(200);
    const failed = await waitFor(async () => {
      const connection = (await owner.api.get(`/v1/open-banking/connections/${created.body.id}`)).body;
      return connection.last_sync_error ? connection : false;
    });
    expect(failed.last_sync_error).toMatch(/^Dados da instituição recusados: .*enorme/);
    expect(failed.last_import_job_id).toBeNull();
    const [{ n }] = await stack.sql<{ n: string }>(
      'select count(*) as n from ledger.transactions where connection_id = $1',
      [created.body.id],
    );
    expect(Number(n)).toBe(0);
    const [{ staged }] = await stack.sql<{ staged: string }>(
      'select count(*) as staged from ledger.sync_staged_entries',
    );
    expect(Number(staged)).toBe(0);
  });

  it('when an item of another connection or unknown to Pluggy is sent, then 404 and the connection still waits; another context gets 404', async () => {
    const created = await tenant.api.post('/v1/open-banking/connections', { institution_id: 'pluggy' });
    for (const item of [pluggy.foreignItem(), 'item-inexistente']) {
      const answer = await tenant.api.post(`/v1/open-banking/connections/${created.body.id}/item`, { item_id: item });
      expect([item, answer.status]).toEqual([item, 404]);
    }
    const intruder = await stack.tenant();
    const stolen = await intruder.api.post(`/v1/open-banking/connections/${created.body.id}/item`, {
      item_id: pluggy.itemFor(created.body.connect_token),
    });
    expect(stolen.status).toBe(404);
    expect((await tenant.api.get(`/v1/open-banking/connections/${created.body.id}`)).body.status).toBe(
      'AWAITING_AUTHORISATION',
    );
  });

  /** Pluggy's call to the webhook URL (with its token unless said otherwise). */
  const hook = (body: unknown, token: string | null = WEBHOOK_TOKEN) =>
    stack
      .client()
      .post(`/v1/open-banking/pluggy/webhook${token === null ? '' : `?token=${encodeURIComponent(token)}`}`, body);
  const itemReads = (itemId: string) => pluggy.calls.filter((call) => call === `GET /items/${itemId}`).length;
  /** Sync jobs ever queued for the connection (each is an outbox row, relayed or not). */
  const syncsQueued = async (connectionId: string) =>
    (
      await stack.sql<{ n: number }>(
        `select count(*)::int as n from ledger.outbox_events
          where type = 'open-banking.sync' and payload::jsonb ->> 'connection_id' = $1`,
        [connectionId],
      )
    )[0].n;

  it('when Pluggy’s webhook names a connected item, then the item is read back and a sync runs; a forged or unknown one does nothing', async () => {
    const { id, itemId } = await connected();
    const first = await syncedImport(tenant.api, id);
    expect((await hook({ event: 'item/updated', itemId: pluggy.foreignItem() })).status).toBe(202);
    expect((await hook({ event: 'item/updated', itemId: 'nada' })).status).toBe(202);
    expect((await hook({ event: 'item/updated' })).status).toBe(202);
    const answer = await hook({ event: 'item/updated', itemId, id: 'evento-1' });
    expect(answer).toMatchObject({ status: 202, body: { received: true } });
    const again = await syncedImport(tenant.api, id, first.connection.last_import_job_id);
    expect(again.job.state).toBe('completed');
  });

  it('when the webhook is called without the URL’s token, or with another, then the same 202 and nothing happens: no call to Pluggy, no sync', async () => {
    const { id, itemId } = await connected();
    await syncedImport(tenant.api, id);
    const [reads, syncs] = [itemReads(itemId), await syncsQueued(id)];
    for (const token of [null, '', 'x', `${WEBHOOK_TOKEN}x`, WEBHOOK_TOKEN.slice(0, -1), WEBHOOK_TOKEN.toUpperCase()]) {
      const answer = await hook({ event: 'item/updated', itemId }, token);
      expect([token, answer.status, answer.body]).toEqual([token, 202, { received: true }]);
    }
    const deleted = await hook({ event: 'item/deleted', itemId }, 'forjado');
    expect(deleted.body).toEqual({ received: true });
    await sleep(500);
    expect([itemReads(itemId), await syncsQueued(id)]).toEqual([reads, syncs]);
    expect((await tenant.api.get(`/v1/open-banking/connections/${id}`)).body.status).toBe('ACTIVE');
  });

  it('when Pluggy’s webhook about one item comes 200 times at once, then the item is read back once and one sync is queued; once the interval passed it acts again', async () => {
    const { id, itemId } = await connected();
    const attached = await syncedImport(tenant.api, id);
    // what a sync alone reads of the item, asked by the client
    const before = itemReads(itemId);
    expect((await tenant.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const first = await syncedImport(tenant.api, id, attached.connection.last_import_job_id);
    const perSync = itemReads(itemId) - before;
    const [reads, syncs] = [itemReads(itemId), await syncsQueued(id)];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) => hook({ event: n % 2 ? 'item/updated' : 'transactions/created', itemId })),
    );
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    const second = await syncedImport(tenant.api, id, first.connection.last_import_job_id);
    // one read by the webhook that acted, and the sync it queued
    expect([itemReads(itemId) - reads, (await syncsQueued(id)) - syncs]).toEqual([1 + perSync, 1]);
    // the interval (a minute here) as if it had passed: the database's clock decides it
    await stack.sql(`update ledger.connections set webhook_acted_at = now() - interval '61 seconds' where id = $1`, [
      id,
    ]);
    expect((await hook({ event: 'item/updated', itemId })).status).toBe(202);
    await syncedImport(tenant.api, id, second.connection.last_import_job_id);
    expect([itemReads(itemId) - reads, (await syncsQueued(id)) - syncs]).toEqual([2 * (1 + perSync), 2]);
  });

  it('when a client asks to sync the same connection 20 times at once, then one sync is queued', async () => {
    const { id } = await connected();
    const first = await syncedImport(tenant.api, id);
    const syncs = await syncsQueued(id);
    // the sync worker takes nothing meanwhile: every request lands while the first sync still waits in the queue
    const queue = stack.service('ledger').runtime.queues.get(QUEUES.openBankingSync);
    await queue.pause();
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => tenant.api.post(`/v1/open-banking/connections/${id}/sync`)),
      );
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
      expect((await syncsQueued(id)) - syncs).toBe(1);
    } finally {
      await queue.resume();
    }
    await syncedImport(tenant.api, id, first.connection.last_import_job_id);
    // once it started, a new request queues the next one
    expect((await tenant.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    expect((await syncsQueued(id)) - syncs).toBe(2);
  });

  it('when the webhook gets a body that is not JSON, malformed JSON, too large or without an event, then the documented 415, 400, 413 and 400, whoever calls', async () => {
    for (const token of [WEBHOOK_TOKEN, null]) {
      const path = `/v1/open-banking/pluggy/webhook${token ? `?token=${token}` : ''}`;
      const send = (body: string, type: string) =>
        stack.client().request('POST', path, { rawBody: body, headers: { 'content-type': type } });
      expect((await send('event=item/updated', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await send('{"event":', 'application/json')).status).toBe(400);
      expect((await send(JSON.stringify({ event: 'x', pad: 'x'.repeat(1_100_000) }), 'application/json')).status).toBe(
        413,
      );
      expect((await send(JSON.stringify({ itemId: 'sem-evento' }), 'application/json')).status).toBe(400);
    }
  });

  it('when the connection is deleted, then its item is deleted at Pluggy; an item Pluggy deleted makes the connection REVOKED', async () => {
    const first = await connected();
    await syncedImport(tenant.api, first.id);
    expect((await tenant.api.delete(`/v1/open-banking/connections/${first.id}`)).body.status).toBe('REVOKED');
    await waitFor(async () => !pluggy.hasItem(first.itemId));

    const second = await connected();
    await syncedImport(tenant.api, second.id);
    // the customer removed the item at Pluggy: its webhook is read back and finds it gone
    pluggy.removeItem(second.itemId);
    expect((await hook({ event: 'item/deleted', itemId: second.itemId })).status).toBe(202);
    await waitFor(
      async () => (await tenant.api.get(`/v1/open-banking/connections/${second.id}`)).body.status === 'REVOKED',
    );
  });
});
