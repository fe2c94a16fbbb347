import { billOfThreePurchases, billsInFlight, withBillRowsHeld } from '../support/bill-bursts.ts';
import { type StackOptions, type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const IN_FLIGHT = 2;
const READS = 7;

/** A stack of its own for the describe it is called in, with a card whose bill holds three purchases. */
function stackWithBill(options: StackOptions) {
  const fixture = {} as { stack: TestStack; tenant: Tenant; path: string };
  beforeAll(async () => {
    fixture.stack = await TestStack.start(options);
    fixture.tenant = await fixture.stack.tenant();
    fixture.path = await billOfThreePurchases(fixture.tenant);
  });
  afterAll(() => fixture.stack?.stop());
  return fixture;
}

/**
 * Asks for the bill alone, then `READS` times at once while the ledger's rows are held; `whileHeld` looks at what
 * is in flight before they are let go. Every answer of the burst must be the whole bill.
 */
async function burstOfBills(fixture: ReturnType<typeof stackWithBill>, whileHeld: () => Promise<void>) {
  const alone = await fixture.tenant.api.get(fixture.path);
  expect(alone.status).toBe(200);
  expect(alone.body.transactions).toHaveLength(3);
  const answers = await withBillRowsHeld(fixture.stack.databaseUrl, async (release) => {
    const burst = Array.from({ length: READS }, () => fixture.tenant.api.get(fixture.path));
    await whileHeld();
    await release();
    return Promise.all(burst);
  });
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(alone.body);
  }
}

/**
 * Bounds on the bills in flight: a burst of bills is let through at most that many at a time, the rest wait in
 * order, and every one of them still gets the whole bill. The ledger's rows are held back by a lock on its
 * table, so the burst is in flight at once whatever the machine's speed.
 */
describe('gateway: bills in flight are bounded by LARGE_ANSWERS_IN_FLIGHT, so billing and the ledger hold no more', () => {
  const fixture = stackWithBill({ env: { RATE_LIMIT_MAX: '100000', LARGE_ANSWERS_IN_FLIGHT: String(IN_FLIGHT) } });
  const inFlight = () => billsInFlight(`${fixture.stack.url}/metrics`);

  it('when more bills are asked for at once than the bound, then that many reach billing and the ledger, the rest wait at the gateway, and every answer is the whole bill', async () => {
    await burstOfBills(fixture, async () => {
      const held = await waitFor(async () => {
        const now = await inFlight();
        return now.gateway.active + now.gateway.waiting === READS && now;
      });
      // the ledger's own bound (4) is above the gateway's: what it holds is what the gateway let through
      expect(held.gateway).toEqual({ active: IN_FLIGHT, waiting: READS - IN_FLIGHT });
      expect(await waitFor(async () => (await inFlight()).ledger.active === IN_FLIGHT)).toBe(true);
      expect((await inFlight()).ledger.waiting).toBe(0);
    });
    const after = await inFlight();
    expect(after.gateway).toEqual({ active: 0, waiting: 0 });
    expect(after.ledger).toEqual({ active: 0, waiting: 0 });
  });

  it('when a client leaves while its bill waits for a slot, then it is never forwarded and its slot goes to the next', async () => {
    const before = (await inFlight()).billsAtBilling;
    const leaving = Array.from({ length: 2 }, () => new AbortController());
    const answers = await withBillRowsHeld(fixture.stack.databaseUrl, async (release) => {
      const staying = Array.from({ length: IN_FLIGHT }, () => fixture.tenant.api.get(fixture.path));
      await waitFor(async () => (await inFlight()).gateway.active === IN_FLIGHT);
      const left = leaving.map((controller) =>
        fetch(`${fixture.stack.url}${fixture.path}`, {
          headers: { authorization: fixture.tenant.api.authorization() ?? '' },
          signal: controller.signal,
        }).catch((err: unknown) => err),
      );
      await waitFor(async () => (await inFlight()).gateway.waiting === leaving.length);
      for (const controller of leaving) controller.abort();
      for (const outcome of await Promise.all(left)) expect(outcome).toMatchObject({ name: 'AbortError' });
      await release();
      return Promise.all(staying);
    });
    for (const answer of answers) expect(answer.status).toBe(200);
    // the slots the leavers waited for are given back, and one more bill is answered as any other
    expect(await waitFor(async () => (await inFlight()).gateway.waiting === 0)).toBe(true);
    expect((await fixture.tenant.api.get(fixture.path)).status).toBe(200);
    const after = await inFlight();
    expect(after.gateway).toEqual({ active: 0, waiting: 0 });
    expect(after.billsAtBilling - before).toBe(IN_FLIGHT + 1);
  });
});

describe('ledger: bill reads in flight are bounded by BILL_READS_IN_FLIGHT', () => {
  const fixture = stackWithBill({
    // the gateway's own bound on bills (LARGE_ANSWERS_IN_FLIGHT) lets the whole burst through to the ledger
    env: { RATE_LIMIT_MAX: '100000', LARGE_ANSWERS_IN_FLIGHT: String(READS) },
    serviceEnv: { ledger: { BILL_READS_IN_FLIGHT: String(IN_FLIGHT) } },
  });
  const billReads = async () => (await billsInFlight(`${fixture.stack.service('ledger').url}/metrics`)).ledger;

  it('when more bills are read at once than the bound, then the ledger assembles that many, queues the rest, and every answer is the whole bill', async () => {
    await burstOfBills(fixture, async () => {
      // every read reached the ledger: the bound's worth wait on the lock, the others on the gate
      const held = await waitFor(async () => {
        const reads = await billReads();
        return reads.active + reads.waiting === READS && reads;
      });
      expect(held).toEqual({ active: IN_FLIGHT, waiting: READS - IN_FLIGHT });
    });
    expect(await billReads()).toEqual({ active: 0, waiting: 0 });
  });
});
