import { startOfMonth, todayUtc } from '@finance/shared/calendar';
import pg from 'pg';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const IN_FLIGHT = 2;
const READS = 7;

/**
 * `BILL_READS_IN_FLIGHT`: a burst of bill reads is assembled by the ledger at most that many at a time, the rest
 * wait in order, and every one of them still gets the whole bill. The ledger's rows are held back by a lock on
 * its table, so the burst is in the ledger at once whatever the machine's speed.
 */
describe('ledger: bill reads in flight are bounded by BILL_READS_IN_FLIGHT', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let cardId: string;
  // the 1st is before the card's closing day (10): its purchases are in the bill of the month
  const month = startOfMonth(todayUtc());

  beforeAll(async () => {
    stack = await TestStack.start({
      // the gateway's own bound on bills (LARGE_ANSWERS_IN_FLIGHT) lets the whole burst through to the ledger
      env: { RATE_LIMIT_MAX: '100000', LARGE_ANSWERS_IN_FLIGHT: String(READS) },
      serviceEnv: { ledger: { BILL_READS_IN_FLIGHT: String(IN_FLIGHT) } },
    });
    tenant = await stack.tenant();
    const accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    cardId = (
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
  });
  afterAll(() => stack?.stop());

  const billReads = async () => {
    const text = await (await fetch(`${stack.service('ledger').url}/metrics`)).text();
    const value = (state: string) =>
      Number(new RegExp(`^ledger_bill_reads\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    return { active: value('active'), waiting: value('waiting') };
  };

  it('when more bills are read at once than the bound, then the ledger assembles that many, queues the rest, and every answer is the whole bill', async () => {
    const path = `/v2/bills/show-by-card/${cardId}?date=${month}`;
    const alone = await tenant.api.get(path);
    expect(alone.status).toBe(200);
    expect(alone.body.transactions).toHaveLength(3);

    const side = new pg.Client({ connectionString: stack.databaseUrl });
    await side.connect();
    try {
      await side.query('begin');
      await side.query('lock table ledger.transactions in access exclusive mode');
      const burst = Array.from({ length: READS }, () => tenant.api.get(path));
      // every read reached the ledger: the bound's worth wait on the lock, the others on the gate
      const held = await waitFor(async () => {
        const reads = await billReads();
        return reads.active + reads.waiting === READS && reads;
      });
      expect(held).toEqual({ active: IN_FLIGHT, waiting: READS - IN_FLIGHT });
      await side.query('commit');
      const answers = await Promise.all(burst);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(alone.body);
      }
    } finally {
      await side.end();
    }
    expect(await billReads()).toEqual({ active: 0, waiting: 0 });
  });
});
