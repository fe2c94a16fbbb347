import { billOfThreePurchases, billReadsInFlight, withBillRowsHeld } from '../../../test/support/bill-bursts.ts';
import { type StackOptions, type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

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
 * The ledger's bound on the bills in flight: a burst of bills is let through at most that many at a time, the rest
 * wait in order, and every one of them still gets the whole bill. The bills' rows are held back by a lock on the
 * ledger's tag links, so the burst is in flight at once whatever the machine's speed.
 */
describe('ledger: bill reads in flight are bounded by BILL_READS_IN_FLIGHT', () => {
  const fixture = stackWithBill({
    env: { RATE_LIMIT_MAX: '100000' },
    serviceEnv: { ledger: { BILL_READS_IN_FLIGHT: String(IN_FLIGHT) } },
  });
  const billReads = () => billReadsInFlight(`${fixture.stack.service('ledger').url}/metrics`);

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
