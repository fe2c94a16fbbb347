import { setTimeout as sleep } from 'node:timers/promises';
import { KEY_IN_FLIGHT } from '@finance/shared/db/idempotency-records';
import { idempotencyTestHooks } from '@finance/shared/http/idempotency';
import { PAYMENT_IN_PROGRESS } from '../../services/billing/src/domain/bills/pay-bill.ts';
import { freePort } from '../support/free-port.ts';
import { DisposableRedis } from '../support/redis-server.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * A write whose first answer never reached the client is retried with the same Idempotency-Key: the retry
 * returns that write's answer and the owning service holds it once, whatever lost the answer (a service killed
 * right after its commit, a gateway timeout, Redis down).
 */
describe('idempotency: a retried write after its answer was lost', () => {
  let redis: DisposableRedis;
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    redis = new DisposableRedis(await freePort());
    await redis.start();
    // the gateway gives up on a silent service after 3 s (a 503 while the write goes on)
    stack = await TestStack.start({ env: { REDIS_URL: redis.url, UPSTREAM_TIMEOUT_MS: '3000' } });
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterEach(() => {
    idempotencyTestHooks.beforeAnswer = undefined;
    idempotencyTestHooks.afterCommit = undefined;
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  /** A card with one purchase; returns its bill id. */
  async function billWithPurchase(amount: number): Promise<string> {
    const card = await tenant.api.post('/v1/credit-cards', {
      name: 'Cartão',
      account_id: accountId,
      closing_date: 10,
      expiring_date: 17,
      limit: 1_000_000,
    });
    expect(card.status).toBe(201);
    const purchase = await tenant.api.post('/v1/transactions', {
      amount,
      date: '2026-01-05',
      is_expense: true,
      title: 'Compra idem',
      credit_card_id: card.body.id,
    });
    expect(purchase.status).toBe(201);
    return purchase.body.bill_id;
  }
  const pay = (billId: string, key: string, body: Record<string, unknown> = { account_id: accountId }) =>
    tenant.api.request('POST', `/v2/bills/${billId}/pay`, { body, headers: { 'idempotency-key': key } });
  const payments = (billId: string) =>
    stack.sql<{ id: string; amount: string }>(
      'select id, amount from ledger.transactions where is_bill_payment and bill_id = $1 and deleted_at is null',
      [billId],
    );
  const onBillingPay = (react: () => Promise<'drop' | undefined>) => {
    idempotencyTestHooks.beforeAnswer = async (service, req) =>
      service === 'billing' && req.path.endsWith('/pay') ? react() : undefined;
  };

  it('when billing dies after the payment committed and before answering, then the retry returns that payment and one row exists', async () => {
    const billId = await billWithPurchase(4321);
    let drops = 1;
    onBillingPay(async () => (drops-- > 0 ? 'drop' : undefined));
    const first = await pay(billId, 'pay-killed-1');
    expect(first.status).toBe(503);
    const [row] = await payments(billId);
    expect(Number(row.amount)).toBe(4321);

    const retry = await pay(billId, 'pay-killed-1');
    expect(retry.status).toBe(200);
    expect(retry.body.payment).toMatchObject({ id: row.id, amount: 4321, bill_id: billId, is_bill_payment: true });
    expect(retry.body.bill).toMatchObject({ id: billId, value: 4321, paid: 4321, balance: 0, status: 'PAID' });
    expect(await payments(billId)).toHaveLength(1);

    const third = await pay(billId, 'pay-killed-1');
    expect(third.status).toBe(200);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body).toEqual(retry.body);
    expect(await payments(billId)).toHaveLength(1);
  });

  it('when the gateway times out on a slow pay, then the 503 does not free the key and the retry replays the payment', async () => {
    const billId = await billWithPurchase(2500);
    let released!: () => void;
    const answered = new Promise<void>((resolve) => {
      released = resolve;
    });
    onBillingPay(async () => {
      await sleep(4500);
      released();
      return undefined;
    });
    const first = await pay(billId, 'pay-slow-1', { account_id: accountId, amount: 2500 });
    expect(first.status).toBe(503);
    await answered;
    idempotencyTestHooks.beforeAnswer = undefined;
    // the released request stores its answer with its key in billing; the retry must find it there
    await waitFor(
      async () =>
        (
          await stack.sql('select 1 from billing.idempotency_keys where idempotency_key = $1 and status is not null', [
            'pay-slow-1',
          ])
        ).length === 1,
    );

    const retry = await pay(billId, 'pay-slow-1', { account_id: accountId, amount: 2500 });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const rows = await payments(billId);
    expect(rows).toHaveLength(1);
    expect(retry.body.payment).toMatchObject({ id: rows[0].id, amount: 2500 });
  });

  it('when a pay timed out at the gateway is retried while the first still runs, then both end with the one payment', async () => {
    const billId = await billWithPurchase(3100);
    let released!: () => void;
    const answered = new Promise<void>((resolve) => {
      released = resolve;
    });
    let slow = 1;
    onBillingPay(async () => {
      if (slow-- > 0) {
        await sleep(4500);
        released();
      }
      return undefined;
    });
    expect((await pay(billId, 'pay-hung-1')).status).toBe(503);
    // the first is still waiting to answer: the retry runs, and the ledger replays its payment
    const retry = await pay(billId, 'pay-hung-1');
    expect(retry.status).toBe(200);
    const rows = await payments(billId);
    expect(rows).toHaveLength(1);
    expect(retry.body.payment).toMatchObject({ id: rows[0].id, amount: 3100 });
    await answered;
    await sleep(100);
    const later = await pay(billId, 'pay-hung-1');
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body.payment.id).toBe(rows[0].id);
    expect(await payments(billId)).toHaveLength(1);
  });

  it('when Redis is down and the answer is lost, then the retry still returns the one payment', async () => {
    const billId = await billWithPurchase(1800);
    await redis.stop();
    try {
      let drops = 1;
      onBillingPay(async () => (drops-- > 0 ? 'drop' : undefined));
      const first = await pay(billId, 'pay-no-redis-1');
      expect(first.status).toBe(503);
      const retry = await pay(billId, 'pay-no-redis-1');
      expect(retry.status).toBe(200);
      const again = await pay(billId, 'pay-no-redis-1');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const rows = await payments(billId);
      expect(rows).toHaveLength(1);
      expect(retry.body.payment.id).toBe(rows[0].id);
      expect(again.body.payment.id).toBe(rows[0].id);
    } finally {
      await redis.start();
    }
  });

  it('when ten pays with one key arrive at once, then one payment exists and every other answer is a 409 in flight', async () => {
    const billId = await billWithPurchase(7000);
    const responses = await Promise.all(Array.from({ length: 10 }, () => pay(billId, 'pay-concurrent-1')));
    const rows = await payments(billId);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].amount)).toBe(7000);
    for (const response of responses) {
      if (response.status === 200) expect(response.body.payment.id).toBe(rows[0].id);
      // a twin finds the key's record in flight, or the bill claimed by the first (409 with Retry-After)
      else {
        expect(response.status).toBe(409);
        expect([KEY_IN_FLIGHT, PAYMENT_IN_PROGRESS]).toContain(response.body.message);
      }
    }
    expect(responses.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    const later = await pay(billId, 'pay-concurrent-1');
    expect(later.status).toBe(200);
    expect(later.body.payment.id).toBe(rows[0].id);
  });

  it('when a pay with a key is repeated with another amount, then 409 and no second payment', async () => {
    const billId = await billWithPurchase(9000);
    expect((await pay(billId, 'pay-reuse-1', { account_id: accountId, amount: 1000 })).status).toBe(200);
    const other = await pay(billId, 'pay-reuse-1', { account_id: accountId, amount: 2000 });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe('Chave de idempotência reutilizada com outra requisição');
    expect(await payments(billId)).toHaveLength(1);
  });

  /** The service `service` dies right after the commit of the next keyed request to `path` (once). */
  const dieAfterCommit = (service: string, path: RegExp) => {
    let deaths = 1;
    idempotencyTestHooks.afterCommit = async (name, req) =>
      name === service && path.test(req.path) && deaths-- > 0 ? 'drop' : undefined;
  };
  /** What the key's record kept in the commit of the write, in the service that owns it. */
  const kept = async (service: string, key: string) =>
    (
      await stack.sql<{ status: number | null; body: string | null }>(
        `select status, body from ${service}.idempotency_keys where idempotency_key = $1`,
        [key],
      )
    )[0];
  const keyed = (method: string, path: string, key: string, body: unknown) =>
    tenant.api.request(method, path, { body, headers: { 'idempotency-key': key } });

  it('when the ledger dies right after committing a create, then the retry replays its answer and one row exists', async () => {
    dieAfterCommit('ledger', /^\/v1\/transactions$/);
    const body = { amount: 990, date: '2026-03-10', is_expense: true, title: 'Idem perdida', account_id: accountId };
    const rows = () => stack.sql<{ id: string }>("select id from ledger.transactions where title = 'Idem perdida'");
    expect((await keyed('POST', '/v1/transactions', 'tx-lost-1', body)).status).toBe(503);
    const [row] = await rows();
    const record = await kept('ledger', 'tx-lost-1');
    expect(record.status).toBe(201);

    const retry = await keyed('POST', '/v1/transactions', 'tx-lost-1', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(JSON.parse(record.body as string));
    expect(retry.body).toEqual((await tenant.api.get(`/v1/transactions/${row.id}`)).body);
    expect(await rows()).toHaveLength(1);
  });

  it('when the ledger dies right after committing a transfer, then the retry replays its answer and one pair exists', async () => {
    const other = (await tenant.api.post('/v1/accounts', { name: 'Poupança', logo: '341' })).body.id;
    dieAfterCommit('ledger', /create-transfer$/);
    const body = {
      amount: 1500,
      date: '2026-03-12',
      title: 'Idem transferência',
      paid: true,
      sent_account_id: accountId,
      received_account_id: other,
    };
    const legs = () =>
      stack.sql<{ id: string; is_expense: boolean }>(
        "select id, is_expense from ledger.transactions where title = 'Idem transferência' and deleted_at is null",
      );
    expect((await keyed('POST', '/v1/transactions/create-transfer', 'transfer-lost-1', body)).status).toBe(503);
    expect(await legs()).toHaveLength(2);

    const retry = await keyed('POST', '/v1/transactions/create-transfer', 'transfer-lost-1', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(JSON.parse((await kept('ledger', 'transfer-lost-1')).body as string));
    const outgoing = (await legs()).find((leg) => leg.is_expense);
    expect(retry.body).toMatchObject({ id: outgoing?.id, amount: 1500, type: 'TRANSFER', account_id: accountId });
    expect(await legs()).toHaveLength(2);
  });

  it('when insights dies right after committing a goal withdrawal, then the retry replays its answer and one withdrawal exists', async () => {
    const goal = (await tenant.api.post('/v2/goals', { title: 'Reserva', amount: 100_000, deadline: '2027-12-31' }))
      .body;
    expect((await tenant.api.post(`/v2/goals/${goal.id}/values`, { date: '2026-03-01', value: 5000 })).status).toBe(
      201,
    );
    dieAfterCommit('insights', /\/values$/);
    const body = { date: '2026-03-05', value: 2000, is_expense: true };
    const path = `/v2/goals/${goal.id}/values`;
    const withdrawals = () =>
      stack.sql<{ id: string }>('select id from insights.goal_values where goal_id = $1 and is_expense', [goal.id]);
    expect((await keyed('POST', path, 'withdrawal-lost-1', body)).status).toBe(503);
    const [row] = await withdrawals();

    const retry = await keyed('POST', path, 'withdrawal-lost-1', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(JSON.parse((await kept('insights', 'withdrawal-lost-1')).body as string));
    expect(retry.body).toMatchObject({ id: row.id, value: 2000, is_expense: true });
    expect(await withdrawals()).toHaveLength(1);
    expect((await tenant.api.get(`/v2/goals/${goal.id}`)).body.goal.saved).toBe(3000);
  });

  it("when the ledger dies right after committing a pay's payment, then the retry returns that payment, replayed, and one row exists", async () => {
    const billId = await billWithPurchase(6100);
    dieAfterCommit('ledger', /\/internal\/v1\/bill-payments$/);
    const first = await pay(billId, 'pay-ledger-died-1');
    expect(first.status).toBe(503);
    const [row] = await payments(billId);
    expect(Number(row.amount)).toBe(6100);

    const retry = await pay(billId, 'pay-ledger-died-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.payment).toMatchObject({ id: row.id, amount: 6100, bill_id: billId, is_bill_payment: true });
    expect(retry.body.bill).toMatchObject({ id: billId, paid: 6100, balance: 0, status: 'PAID' });
    expect(await payments(billId)).toHaveLength(1);
  });

  it('when billing dies right after committing a closing-day change, then the retry rebuilds the answer from its recovery point, replayed', async () => {
    const card = await tenant.api.post('/v1/credit-cards', {
      name: 'Cartão dias',
      account_id: accountId,
      closing_date: 10,
      expiring_date: 17,
      limit: 1_000_000,
    });
    dieAfterCommit('billing', /^\/v2\/bills\/closing-date/);
    const path = `/v2/bills/closing-date/by-card/${card.body.id}`;
    const body = { closing_day: 3, edition_type: 'ALL' };
    expect((await keyed('PATCH', path, 'closing-lost-1', body)).status).toBe(503);
    const versions = () =>
      stack.sql<{ calendar_version: number }>('select calendar_version from billing.credit_cards where id = $1', [
        card.body.id,
      ]);
    const [changed] = await versions();

    const retry = await keyed('PATCH', path, 'closing-lost-1', body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.updated).toBeGreaterThan(0);
    expect(String(retry.body.bill.closing_date).slice(8, 10)).toBe('03');
    // nothing ran twice: the calendar moved once
    expect(await versions()).toEqual([changed]);
    const again = await keyed('PATCH', path, 'closing-lost-1', body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retry.body);
  });

  it('when billing dies right after committing a card update, then the retry rebuilds the card from its recovery point, replayed', async () => {
    const card = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão nome',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      })
    ).body;
    dieAfterCommit('billing', /^\/v1\/credit-cards\//);
    const body = { name: 'Cartão renomeado', limit: 500_000 };
    expect((await keyed('PUT', `/v1/credit-cards/${card.id}`, 'card-lost-1', body)).status).toBe(503);
    const retry = await keyed('PUT', `/v1/credit-cards/${card.id}`, 'card-lost-1', body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body);
    expect(retry.body).toMatchObject({ name: 'Cartão renomeado', limit: 500_000 });
  });

  it('when the ledger dies right after committing an import, then the retry answers its one job, replayed', async () => {
    dieAfterCommit('ledger', /^\/v1\/open-banking\/imports$/);
    const body = {
      connection: { id: 'conn-idem-lost', institution: 'Banco' },
      accounts: [{ external_id: 'a-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1 }],
      transactions: [],
    };
    expect((await keyed('POST', '/v1/open-banking/imports', 'import-lost-1', body)).status).toBe(503);
    const retry = await keyed('POST', '/v1/open-banking/imports', 'import-lost-1', body);
    expect([200, 202]).toContain(retry.status);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const jobs = await stack.sql<{ id: string }>("select id from ledger.background_jobs where kind = 'IMPORT'");
    expect(jobs).toHaveLength(1);
    expect(retry.body.job.id).toBe(jobs[0].id);
  });

  it('when ten plain creates with one key arrive at once, then one transaction and its key record exist and every other answer is that one or 409 in flight', async () => {
    // a plain create (an account, nothing else) is the ledger's one-statement path: under a key it keeps its transaction
    // every answer waits, so no twin can learn of the first through a stored answer, only through the key's record
    idempotencyTestHooks.beforeAnswer = async (service, req) => {
      if (service === 'ledger' && req.path === '/v1/transactions') await sleep(1500);
      return undefined;
    };
    const body = { amount: 770, date: '2026-03-11', is_expense: true, title: 'Idem dez', account_id: accountId };
    const send = () =>
      tenant.api.request('POST', '/v1/transactions', { body, headers: { 'idempotency-key': 'tx-ten-1' } });
    const responses = await Promise.all(Array.from({ length: 10 }, send));
    const rows = await stack.sql<{ id: string }>("select id from ledger.transactions where title = 'Idem dez'");
    expect(rows).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) expect(response.body.id).toBe(rows[0].id);
      else expect(response).toMatchObject({ status: 409, body: { message: KEY_IN_FLIGHT } });
    }
    const records = await stack.sql<{ status: number }>(
      "select status from ledger.idempotency_keys where idempotency_key = 'tx-ten-1'",
    );
    expect(records).toEqual([{ status: 201 }]);
    idempotencyTestHooks.beforeAnswer = undefined;
    const later = await send();
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body.id).toBe(rows[0].id);
  });
});
