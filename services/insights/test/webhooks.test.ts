import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { todayUtc } from '@finance/shared/calendar';
import { type DomainEvent, EVENT_BATCH_JOB, QUEUES, WEBHOOK_EVENT_TYPES } from '@finance/shared/queue/catalogue';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { tableContents } from '../../../test/support/table-contents.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import { sendWebhook } from '../src/data-access/webhook-sender.ts';
import { verifySignature } from '../src/domain/webhooks/signature.ts';

const RETRY_BASE_MS = 100;
const DISABLE_AFTER = 5;

/** Checks a `Finance-Signature` the way docs/webhooks.md tells receivers to, with nothing but node:crypto. */
function signatureMatches(secret: string, header: string, rawBody: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2)));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest('hex');
  return parts.v1 === expected && Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
}

/** The `verified` function of docs/webhooks.md's example, run as written. */
function readmeVerifier(secret: string): (header: string, rawBody: string) => boolean {
  const source = /function verified\(header, rawBody\) \{[\s\S]*?\n\}\n/.exec(
    readFileSync('docs/webhooks.md', 'utf8'),
  )?.[0];
  if (!source) throw new Error('docs/webhooks.md has no verification example');
  return new Function('createHmac', 'timingSafeEqual', 'secret', `${source}; return verified;`)(
    createHmac,
    timingSafeEqual,
    secret,
  );
}

describe('webhooks', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let owner: Tenant;
  let accountId: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    stack = await TestStack.start({
      serviceEnv: {
        insights: {
          WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
          WEBHOOK_DISABLE_AFTER_FAILURES: String(DISABLE_AFTER),
        },
      },
    });
    owner = await stack.tenant();
    accountId = (await owner.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  const subscribe = async (api: Tenant['api'], path: string, events = ['transaction.created']) => {
    const response = await api.post('/v1/webhooks', { url: `${receiver.url}${path}`, events, description: 'teste' });
    expect(response.status).toBe(201);
    return response.body as { id: string; secret: string };
  };
  const createTransaction = async (api: Tenant['api'], title: string, account = accountId) => {
    const response = await api.post('/v1/transactions', {
      amount: 1234,
      date: todayUtc(),
      is_expense: true,
      title,
      account_id: account,
    });
    expect(response.status).toBe(201);
    return response.body as { id: string };
  };
  const deliveriesOf = async (api: Tenant['api'], webhookId: string) =>
    (await api.get(`/v1/webhooks/${webhookId}/deliveries`)).body.data;

  it('when a transaction is created, then the receiver gets transaction.created within 2 s, signed with the secret shown once', async () => {
    const webhook = await subscribe(owner.api, '/ok');
    expect(webhook).toMatchObject({
      url: `${receiver.url}/ok`,
      events: ['transaction.created'],
      description: 'teste',
      status: 'ENABLED',
      disabled_at: null,
      user_id: owner.userId,
      profile_id: null,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    const shown = await owner.api.get(`/v1/webhooks/${webhook.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).not.toHaveProperty('secret');
    expect((await owner.api.get('/v1/webhooks')).body.data.map((w: object) => 'secret' in w)).toEqual([false]);

    const created = Date.now();
    const transaction = await createTransaction(owner.api, 'Mercado');
    const [call] = await waitFor(async () => receiver.on('/ok').length > 0 && receiver.on('/ok'), 2000, 20);
    expect(call.at - created).toBeLessThan(2000);
    expect(call.headers['content-type']).toBe('application/json');
    const body = JSON.parse(call.rawBody);
    expect(body).toEqual({
      id: expect.any(String),
      type: 'transaction.created',
      created_at: expect.any(String),
      data: { transactions: [expect.objectContaining({ id: transaction.id, amount: 1234, is_expense: true })] },
    });
    expect(call.headers['finance-event-id']).toBe(body.id);
    expect(call.headers['finance-event-type']).toBe('transaction.created');
    const header = String(call.headers['finance-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureMatches(webhook.secret, header, call.rawBody)).toBe(true);
    expect(verifySignature(webhook.secret, header, call.rawBody, Math.floor(Date.now() / 1000))).toBe(true);
    expect(readmeVerifier(webhook.secret)(header, call.rawBody)).toBe(true);
    expect(readmeVerifier(webhook.secret)(header, `${call.rawBody} `)).toBe(false);
    expect(signatureMatches('whsec_outro', header, call.rawBody)).toBe(false);
    expect(signatureMatches(webhook.secret, header, call.rawBody.replace('1234', '1235'))).toBe(false);

    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(owner.api, webhook.id);
      return list[0]?.status === 'SUCCEEDED' && list;
    });
    expect(delivery).toMatchObject({
      webhook_id: webhook.id,
      event_id: body.id,
      event_type: 'transaction.created',
      attempts: 1,
      last_status_code: 204,
      payload: body,
      attempt_log: [{ attempt: 1, manual: false, status_code: 204, error: null }],
    });
    await owner.api.delete(`/v1/webhooks/${webhook.id}`);
  });

  it('when the receiver answers 500 three times, then the event arrives on the fourth try and every attempt is listed', async () => {
    receiver.failFirst('/flaky', 3);
    const webhook = await subscribe(owner.api, '/flaky');
    await createTransaction(owner.api, 'Farmácia');
    await waitFor(async () => receiver.on('/flaky').length >= 4, 10_000, 20);
    const calls = receiver.on('/flaky');
    expect(new Set(calls.map((call) => JSON.parse(call.rawBody).id)).size).toBe(1);
    // exponential backoff: each wait is at least twice the previous base
    expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS - 20);
    expect(calls[3].at - calls[2].at).toBeGreaterThanOrEqual(4 * RETRY_BASE_MS - 20);
    for (const call of calls)
      expect(signatureMatches(webhook.secret, String(call.headers['finance-signature']), call.rawBody)).toBe(true);
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(owner.api, webhook.id);
      return list[0]?.status === 'SUCCEEDED' && list;
    });
    expect(delivery.attempts).toBe(4);
    expect(delivery.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500, 204]);
    expect(delivery.attempt_log[0].error).toBe('O receptor respondeu 500');
    expect(receiver.on('/flaky')).toHaveLength(4);

    // a retry asked by the client sends the same event again and is logged as manual
    const retried = await owner.api.post(`/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: delivery.id, status: 'PENDING' });
    await waitFor(async () => receiver.on('/flaky').length === 5, 5000, 20);
    expect(JSON.parse(receiver.on('/flaky')[4].rawBody).id).toBe(delivery.event_id);
    const [after] = await waitFor(async () => {
      const list = await deliveriesOf(owner.api, webhook.id);
      return list[0]?.attempts === 5 && list[0].status === 'SUCCEEDED' && list;
    });
    expect(after.attempt_log[4]).toMatchObject({ attempt: 5, manual: true, status_code: 204 });
    await owner.api.delete(`/v1/webhooks/${webhook.id}`);
  });

  it('when a receiver keeps failing, then the webhook is disabled with a notification and gets nothing more', async () => {
    receiver.failAlways('/down');
    const webhook = await subscribe(owner.api, '/down');
    for (const title of ['Um', 'Dois']) await createTransaction(owner.api, title);
    const disabled = await waitFor(async () => {
      const shown = (await owner.api.get(`/v1/webhooks/${webhook.id}`)).body;
      return shown.status === 'DISABLED' && shown;
    }, 15_000);
    expect(disabled.disabled_at).toEqual(expect.any(String));
    const notes = (await owner.api.get('/v1/notifications')).body.data.filter(
      (note: { kind: string }) => note.kind === 'WEBHOOK_DISABLED',
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toMatchObject({ webhook_id: webhook.id });
    const deliveries = await waitFor(async () => {
      const list = await deliveriesOf(owner.api, webhook.id);
      return list.length === 2 && list.every((d: { status: string }) => d.status === 'FAILED') && list;
    });
    const attempts = deliveries.reduce((sum: number, d: { attempts: number }) => sum + d.attempts, 0);
    // the two deliveries run side by side, so one attempt may already be on the wire when the streak is reached
    expect(attempts).toBeGreaterThanOrEqual(DISABLE_AFTER);
    expect(attempts).toBeLessThanOrEqual(DISABLE_AFTER + 1);
    const calls = receiver.on('/down').length;
    expect(calls).toBe(attempts);

    await createTransaction(owner.api, 'Depois');
    const retried = await owner.api.post(`/v1/webhooks/${webhook.id}/deliveries/${deliveries[0].id}/retry`);
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.on('/down')).toHaveLength(calls);
    expect(await deliveriesOf(owner.api, webhook.id)).toHaveLength(2);
  });

  it("when the same batch reaches the fan-out many times at once, then each webhook gets its context's event once and no other", async () => {
    const first = await subscribe(owner.api, '/dedupe-a');
    const second = await subscribe(owner.api, '/dedupe-b');
    const event: DomainEvent = {
      event_id: '01900000-0000-7000-8000-000000000001',
      type: 'transaction.changed',
      occurred_at: new Date().toISOString(),
      context: { user_id: owner.userId, profile_id: null },
      data: { change: 'created', transactions: [] },
    };
    // the same user's business profile and another user: contexts without a webhook, in the same batches
    const others: DomainEvent[] = [
      { ...event, event_id: crypto.randomUUID(), context: { user_id: owner.userId, profile_id: crypto.randomUUID() } },
      { ...event, event_id: crypto.randomUUID(), context: { user_id: crypto.randomUUID(), profile_id: null } },
    ];
    const queue = stack.service('insights').runtime.queues.get(QUEUES.webhookEvents);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        queue.add(EVENT_BATCH_JOB, { events: [others[0], event, others[1]] }, { jobId: `dup-${i}` }),
      ),
    );
    await waitFor(async () => receiver.on('/dedupe-a').length >= 1 && receiver.on('/dedupe-b').length >= 1, 5000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receiver.on('/dedupe-a')).toHaveLength(1);
    expect(receiver.on('/dedupe-b')).toHaveLength(1);
    const rows = await stack.sql<{ n: number }>(
      'select count(*)::int as n from insights.webhook_deliveries where event_id = $1',
      [event.event_id],
    );
    expect(rows[0].n).toBe(2);
    const strays = await stack.sql<{ n: number }>(
      'select count(*)::int as n from insights.webhook_deliveries where event_id = any($1::uuid[])',
      [others.map((other) => other.event_id)],
    );
    expect(strays[0].n).toBe(0);
    for (const webhook of [first, second]) await owner.api.delete(`/v1/webhooks/${webhook.id}`);
  });

  it('when a transaction change is relayed, then one job gives it to both the limits and the webhooks, each once', async () => {
    const owner = await stack.tenant();
    const account = (await owner.api.post('/v1/accounts', { name: 'Atualização', logo: '341' })).body.id;
    await subscribe(owner.api, '/rolling');
    const created = await createTransaction(owner.api, 'Durante a atualização', account);
    // the relay's own job: one delivery, and the event in both consumers' inboxes
    await waitFor(async () => receiver.on('/rolling').length === 1, 5000);
    const [row] = await stack.sql<{ id: string; payload: DomainEvent }>(
      `select id, payload from ledger.outbox_events
        where type = 'transaction.changed' and payload -> 'data' -> 'transactions' -> 0 ->> 'id' = $1`,
      [created.id],
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.on('/rolling')).toHaveLength(1);
    const inbox = await stack.sql<{ consumer: string }>(
      'select consumer from insights.processed_events where event_id = $1 order by consumer',
      [row.id],
    );
    expect(inbox.map((entry) => entry.consumer)).toEqual(['insights', 'webhooks']);
    const [deliveries] = await stack.sql<{ n: number }>(
      'select count(*)::int as n from insights.webhook_deliveries where event_id = $1',
      [row.id],
    );
    expect(deliveries.n).toBe(1);
  });

  it('when a context has no webhook, then its events are consumed without leaving an inbox row', async () => {
    const quiet = await stack.tenant();
    const account = (await quiet.api.post('/v1/accounts', { name: 'Sem webhook', logo: '341' })).body.id;
    await createTransaction(quiet.api, 'Silenciosa', account);
    const queue = stack.service('insights').runtime.queues.get(QUEUES.transactionChanges);
    await waitFor(async () => {
      const [pending] = await stack.sql<{ n: number; limits: number }>(
        `select (select count(*) from ledger.outbox_events where published_at is null)::int as n,
                (select count(*) from insights.processed_events p join ledger.outbox_events o on o.id = p.event_id
                  where p.consumer = 'insights' and o.type = 'transaction.changed'
                    and o.payload -> 'context' ->> 'user_id' = $1)::int as limits`,
        [quiet.userId],
      );
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
      return pending.n === 0 && pending.limits === 1 && counts.waiting + counts.active + counts.delayed === 0;
    });
    const [completed] = await stack.sql<{ n: number }>(
      `select count(*)::int as n from ledger.outbox_events o
       where o.payload -> 'context' ->> 'user_id' = $1 and o.type = 'transaction.changed'`,
      [quiet.userId],
    );
    expect(completed.n).toBe(1);
    const rows = await stack.sql(
      `select p.event_id from insights.processed_events p
       join ledger.outbox_events o on o.id = p.event_id
       where p.consumer = 'webhooks' and o.payload -> 'context' ->> 'user_id' = $1`,
      [quiet.userId],
    );
    expect(rows).toEqual([]);
  });

  it('when another context calls the id routes of a webhook, then 404 and nothing changes', async () => {
    const webhook = await subscribe(owner.api, '/iso');
    await createTransaction(owner.api, 'Isolado');
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(owner.api, webhook.id);
      return list[0]?.status === 'SUCCEEDED' && list;
    });
    const stranger = await stack.tenant();
    const company = await stack.companyClient(owner.userId);
    const before = await tableContents(stack);
    for (const api of [stranger.api, company.api]) {
      for (const [method, path] of [
        ['GET', `/v1/webhooks/${webhook.id}`],
        ['DELETE', `/v1/webhooks/${webhook.id}`],
        ['GET', `/v1/webhooks/${webhook.id}/deliveries`],
        ['POST', `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`],
      ]) {
        const response = await api.request(method, path);
        expect(`${method} ${path}: ${response.status}`).toBe(`${method} ${path}: 404`);
        expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
      }
      expect((await api.get('/v1/webhooks')).body.data).toEqual([]);
    }
    // a delivery id under another of the owner's webhooks is 404 too
    const other = await subscribe(owner.api, '/iso-2');
    expect((await owner.api.post(`/v1/webhooks/${other.id}/deliveries/${delivery.id}/retry`)).status).toBe(404);
    await owner.api.delete(`/v1/webhooks/${other.id}`);
    expect(await tableContents(stack)).toEqual(before);
    expect((await owner.api.delete(`/v1/webhooks/${webhook.id}`)).body).toEqual({ deleted: true });
    expect((await owner.api.get(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
  });

  it('when a webhook body is invalid, then 400 with details in Portuguese and nothing is written', async () => {
    const messages: string[] = [];
    for (const body of [
      { url: 'ftp://example.com/x', events: ['transaction.created'] },
      { url: 'não é url', events: ['transaction.created'] },
      { url: 'https://example.com/x', events: ['transaction.exploded'] },
      { url: 'https://example.com/x', events: [] },
      { url: 'https://example.com/x' },
      { url: 'https://example.com/x', events: ['bill.paid', 'bill.paid'] },
    ]) {
      const response = await owner.api.post('/v1/webhooks', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: expect.any(Array) });
      messages.push(...response.body.details.map((d: { message: string }) => d.message));
    }
    expect(messages[0]).toBe('url deve ser uma URL https');
    // joi's English defaults never leak
    expect(messages.filter((m) => /\b(must|is required|not allowed|contains a duplicate)\b/.test(m))).toEqual([]);
    const rows = await stack.sql<{ n: number }>(
      "select count(*)::int as n from insights.webhooks where url like 'ftp%' or url like 'https://example.com%'",
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('webhook retries end with their window', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    stack = await TestStack.start({
      serviceEnv: {
        insights: {
          WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_RETRY_BASE_MS: '100',
          WEBHOOK_RETRY_WINDOW_MS: '1400',
        },
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  it('when a receiver fails past the retry window, then the delivery is FAILED and the webhook stays enabled', async () => {
    receiver.failAlways('/late');
    const { api } = await stack.tenant();
    const webhook = (await api.post('/v1/webhooks', { url: `${receiver.url}/late`, events: ['transaction.created'] }))
      .body;
    const account = (await api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    await api.post('/v1/transactions', {
      amount: 10,
      date: todayUtc(),
      is_expense: true,
      title: 'X',
      account_id: account,
    });
    const [delivery] = await waitFor(async () => {
      const list = (await api.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.data;
      return list[0]?.status === 'FAILED' && list;
    }, 10_000);
    // retries after 100, 200 and 400 ms fit in the 1.4 s window; the next one (800 ms more, past 1.5 s) cannot
    expect(delivery.attempts).toBe(4);
    expect(delivery.next_attempt_at).toBeNull();
    expect(delivery.last_error).toBe('O receptor respondeu 500');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.on('/late')).toHaveLength(4);
    expect((await api.get(`/v1/webhooks/${webhook.id}`)).body.status).toBe('ENABLED');
  });
});

describe('webhooks in the OpenAPI document', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it('when /openapi.json is read, then its webhooks section documents every event with its body, example and signature header', async () => {
    const document = (await stack.client().get('/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const operation = document.webhooks[type].post;
      const content = operation.requestBody.content['application/json'];
      expect(content.schema.properties.type).toEqual({ type: 'string', const: type });
      expect(content.schema.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'data']));
      expect(content.example).toMatchObject({ type, id: expect.any(String), data: expect.any(Object) });
      expect(operation.parameters.map((p: { name: string }) => p.name)).toContain('Finance-Signature');
      expect(operation.description).toContain('HMAC-SHA256');
    }
    for (const path of ['/v1/webhooks', '/v1/webhooks/{id}', '/v1/webhooks/{id}/deliveries']) {
      expect(document.paths[path]).toBeDefined();
    }
    expect(document.paths['/v1/webhooks/{id}/deliveries/{deliveryId}/retry'].post.responses['202']).toBeDefined();
  });
});

describe('webhook targets without the operator setting', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    stack = await TestStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  it('when a webhook targets a loopback, private or link-local address or plain http, then 400 and nothing is written', async () => {
    const { api } = await stack.tenant();
    for (const url of [
      `https://127.0.0.1:${new URL(receiver.url).port}/hook`,
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://[fe80::1]/hook',
      'http://example.com/hook',
    ]) {
      const response = await api.post('/v1/webhooks', { url, events: ['transaction.created'] });
      expect(`${url}: ${response.status}`).toBe(`${url}: 400`);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: [{ field: 'url' }] });
    }
    const rows = await stack.sql<{ n: number }>('select count(*)::int as n from insights.webhooks');
    expect(rows[0].n).toBe(0);
  });

  it('when a delivery resolves to a loopback address at send time, then it is refused before any connection', async () => {
    const port = new URL(receiver.url).port;
    for (const url of [`http://localhost:${port}/late`, `http://127.0.0.1:${port}/late`]) {
      const outcome = await sendWebhook(
        { url, body: '{}', headers: { 'content-type': 'application/json' } },
        { allowPrivateTargets: false, timeoutMs: 2000 },
      );
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining('endereço local') });
    }
    expect(receiver.on('/late')).toHaveLength(0);
    const allowed = await sendWebhook(
      { url: `http://localhost:${port}/late`, body: '{}', headers: { 'content-type': 'application/json' } },
      { allowPrivateTargets: true, timeoutMs: 2000 },
    );
    expect(allowed).toMatchObject({ ok: true, statusCode: 204 });
  });

  it('when a receiver answers too slowly or redirects, then the attempt fails within the timeout', async () => {
    const slow = createServer((req, res) => {
      if (req.url === '/redirect') return res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      // headers at once, then a byte every 100 ms: the socket never idles, the body never ends
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      const outcome = await sendWebhook(
        { url: `${base}/drip`, body: '{}', headers: { 'content-type': 'application/json' } },
        { allowPrivateTargets: true, timeoutMs: 300 },
      );
      expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('Sem resposta em 300 ms') });
      expect(Date.now() - started).toBeLessThan(2000);
      const redirected = await sendWebhook(
        { url: `${base}/redirect`, body: '{}', headers: { 'content-type': 'application/json' } },
        { allowPrivateTargets: true, timeoutMs: 300 },
      );
      expect(redirected).toMatchObject({ ok: false, statusCode: 302 });
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
