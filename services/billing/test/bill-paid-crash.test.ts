import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { idempotencyTestHooks } from '@finance/shared/http/idempotency';
import { freePort } from '../../../test/support/free-port.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { WebhookReceiver } from '../../../test/support/webhook-receiver.ts';

const BILLING_MAIN = path.resolve(__dirname, '../src/main.ts');

/**
 * `bill.paid` announces a payment the ledger commits: billing records it when it consumes the ledger's event of
 * that payment (`bill.payment_recorded`), so a billing process killed after the ledger's commit and before its
 * own loses nothing. Billing's workers run in a real process here, killed with SIGKILL at that instant.
 */
describe('bill.paid when billing dies between the ledger commit of a payment and its own', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  const processes: ChildProcess[] = [];

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // the in-process billing serves HTTP only: its queues (the ledger's events) and outbox belong to the process below
    stack = await TestStack.start({
      serviceEnv: { billing: { ROLE: 'api' }, insights: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } },
    });
    tenant = await stack.tenant();
  });
  afterEach(() => {
    idempotencyTestHooks.afterCommit = undefined;
  });
  afterAll(async () => {
    for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await stack?.stop();
    await receiver?.stop();
  });

  /** A billing process (HTTP and workers) on the stack's database, queues and ledger; resolves once it is ready. */
  async function startBilling(): Promise<{ child: ChildProcess; url: string }> {
    const port = await freePort();
    const child = spawn(process.execPath, [BILLING_MAIN], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        NODE_ENV: 'test',
        ROLE: 'all',
        PORT: String(port),
        DATABASE_URL: stack.databaseUrl,
        REDIS_URL: stack.env.REDIS_URL,
        QUEUE_PREFIX: stack.env.QUEUE_PREFIX,
        LEDGER_URL: stack.ledger.url,
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    processes.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true, 30_000);
    return { child, url };
  }

  const paidEvents = (billId: string) =>
    receiver
      .on('/hook')
      .map((call) => JSON.parse(call.rawBody))
      .filter((event) => event.type === 'bill.paid' && event.data.bill_id === billId);

  it('when billing is killed right after the ledger committed the payment, then after its restart bill.paid arrives once', async () => {
    const { api } = tenant;
    const accountId = (await api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    expect((await api.post('/v1/webhooks', { url: `${receiver.url}/hook`, events: ['bill.paid'] })).status).toBe(201);
    const card = (
      await api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      })
    ).body;
    const purchase = await api.post('/v1/transactions', {
      amount: 4200,
      date: '2026-02-05',
      is_expense: true,
      title: 'Compra',
      credit_card_id: card.id,
    });
    expect(purchase.status).toBe(201);
    const billId: string = purchase.body.bill_id;

    const first = await startBilling();
    // the instant the ledger has committed the payment (and its event), billing dies, before its own commit
    idempotencyTestHooks.afterCommit = async (service, req) => {
      if (service !== 'ledger' || !req.path.endsWith('/bill-payments')) return undefined;
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      return undefined;
    };
    const context = signContext(
      { userId: tenant.userId, profileId: null, business: false, keyId: tenant.key.keyId },
      stack.billing.runtime.config.INTERNAL_SECRET,
    );
    const pay = (url: string) =>
      fetch(`${url}/v2/bills/${billId}/pay`, {
        method: 'POST',
        headers: { [CONTEXT_HEADER]: context, 'content-type': 'application/json', 'idempotency-key': 'pay-crash-1' },
        body: JSON.stringify({ account_id: accountId }),
      });
    await expect(pay(first.url)).rejects.toThrow();
    await waitFor(async () => first.child.signalCode === 'SIGKILL');
    idempotencyTestHooks.afterCommit = undefined;
    const payments = await stack.sql<{ id: string; amount: string }>(
      'select id, amount from ledger.transactions where is_bill_payment and bill_id = $1',
      [billId],
    );
    expect(payments).toHaveLength(1);
    expect(Number(payments[0].amount)).toBe(4200);
    // no billing process is up: nothing announces the bill yet
    await sleep(1000);
    expect(await stack.sql("select 1 from billing.outbox_events where type = 'bill.paid'")).toEqual([]);
    expect(paidEvents(billId)).toEqual([]);

    const restarted = await startBilling();
    await waitFor(async () => paidEvents(billId).length > 0, 20_000);
    const [event] = paidEvents(billId);
    expect(event.data).toMatchObject({
      bill_id: billId,
      credit_card_id: card.id,
      balance: 0,
      payment: { transaction_id: payments[0].id, amount: 4200, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });

    // the client's retry, once the dead process's claim on the bill lapsed, replays the payment and announces nothing new
    await stack.sql("update billing.bills set busy_until = now() - interval '1 second' where id = $1", [billId]);
    const retry = await pay(restarted.url);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as { payment: { id: string } }).payment.id).toBe(payments[0].id);
    await sleep(1500);
    expect(paidEvents(billId)).toHaveLength(1);
    expect(await stack.sql('select 1 from billing.outbox_events where type = $1', ['bill.paid'])).toHaveLength(1);
  }, 90_000);
});
