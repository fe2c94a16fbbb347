import { startOfMonth, todayUtc } from '@finance/shared/calendar';
import pg from 'pg';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const IN_FLIGHT = 2;
const READS = 7;

/**
 * `LARGE_ANSWERS_IN_FLIGHT`: the gateway forwards at most that many bills at once, so billing and the ledger
 * behind it hold no more than that many either; the rest wait in order at the door, a client that leaves while
 * waiting is never forwarded, and every answer is still the whole bill. The ledger's rows are held back by a
 * lock on its table, so the burst is at the gateway at once whatever the machine's speed.
 */
describe('gateway: bills in flight are bounded by LARGE_ANSWERS_IN_FLIGHT', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let path: string;
  // the 1st is before the card's closing day (10): its purchases are in the bill of the month
  const month = startOfMonth(todayUtc());

  beforeAll(async () => {
    stack = await TestStack.start({
      env: { RATE_LIMIT_MAX: '100000', LARGE_ANSWERS_IN_FLIGHT: String(IN_FLIGHT) },
    });
    tenant = await stack.tenant();
    const accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    const cardId = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      })
    ).body.id;
    for (let k = 0; k < 3; k++) {
      const created = await tenant.api.post('/v1/transactions', {
        title: `Compra ${k}`,
        is_expense: true,
        credit_card_id: cardId,
        amount: 1000 + k,
        date: month,
      });
      expect(created.status).toBe(201);
    }
    path = `/v2/bills/show-by-card/${cardId}?date=${month}`;
  });
  afterAll(() => stack?.stop());

  /** The services share this process's metrics registry: any of them shows every gauge and count. */
  const metrics = async () => {
    const text = await (await fetch(`${stack.url}/metrics`)).text();
    const gauge = (name: string, state: string) =>
      Number(new RegExp(`^${name}\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    const billsAtBilling = [
      ...text.matchAll(/^http_request_duration_seconds_count\{[^}]*service="billing"[^}]*show-by-card[^}]*\} (\d+)$/gm),
    ].reduce((sum, match) => sum + Number(match[1]), 0);
    return {
      gateway: { active: gauge('gateway_large_answers', 'active'), waiting: gauge('gateway_large_answers', 'waiting') },
      ledger: { active: gauge('ledger_bill_reads', 'active'), waiting: gauge('ledger_bill_reads', 'waiting') },
      billsAtBilling,
    };
  };

  /** Runs `burst` while the ledger's table is locked, so what it sends stays in flight until `release`. */
  async function withLedgerHeld<T>(during: (release: () => Promise<void>) => Promise<T>): Promise<T> {
    const side = new pg.Client({ connectionString: stack.databaseUrl });
    await side.connect();
    let released = false;
    try {
      await side.query('begin');
      await side.query('lock table ledger.transactions in access exclusive mode');
      return await during(async () => {
        released = true;
        await side.query('commit');
      });
    } finally {
      if (!released) await side.query('rollback');
      await side.end();
    }
  }

  it('when more bills are asked for at once than the bound, then that many reach billing and the ledger, the rest wait at the gateway, and every answer is the whole bill', async () => {
    const alone = await tenant.api.get(path);
    expect(alone.status).toBe(200);
    expect(alone.body.transactions).toHaveLength(3);

    const answers = await withLedgerHeld(async (release) => {
      const burst = Array.from({ length: READS }, () => tenant.api.get(path));
      const held = await waitFor(async () => {
        const now = await metrics();
        return now.gateway.active + now.gateway.waiting === READS && now;
      });
      // the ledger's own bound (4) is above the gateway's: what it holds is what the gateway let through
      expect(held.gateway).toEqual({ active: IN_FLIGHT, waiting: READS - IN_FLIGHT });
      expect(await waitFor(async () => (await metrics()).ledger.active === IN_FLIGHT)).toBe(true);
      expect((await metrics()).ledger.waiting).toBe(0);
      await release();
      return Promise.all(burst);
    });
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(alone.body);
    }
    const after = await metrics();
    expect(after.gateway).toEqual({ active: 0, waiting: 0 });
    expect(after.ledger).toEqual({ active: 0, waiting: 0 });
  });

  it('when a client leaves while its bill waits for a slot, then it is never forwarded and its slot goes to the next', async () => {
    const before = (await metrics()).billsAtBilling;
    const leaving = Array.from({ length: 2 }, () => new AbortController());
    const answers = await withLedgerHeld(async (release) => {
      const staying = Array.from({ length: IN_FLIGHT }, () => tenant.api.get(path));
      await waitFor(async () => (await metrics()).gateway.active === IN_FLIGHT);
      const left = leaving.map((controller) =>
        fetch(`${stack.url}${path}`, {
          headers: { authorization: tenant.api.authorization() ?? '' },
          signal: controller.signal,
        }).catch((err: unknown) => err),
      );
      await waitFor(async () => (await metrics()).gateway.waiting === leaving.length);
      for (const controller of leaving) controller.abort();
      for (const outcome of await Promise.all(left)) expect(outcome).toMatchObject({ name: 'AbortError' });
      await release();
      return Promise.all(staying);
    });
    for (const answer of answers) expect(answer.status).toBe(200);
    // the slots the leavers waited for are given back, and one more bill is answered as any other
    expect(await waitFor(async () => (await metrics()).gateway.waiting === 0)).toBe(true);
    expect((await tenant.api.get(path)).status).toBe(200);
    const after = await metrics();
    expect(after.gateway).toEqual({ active: 0, waiting: 0 });
    expect(after.billsAtBilling - before).toBe(IN_FLIGHT + 1);
  });
});
