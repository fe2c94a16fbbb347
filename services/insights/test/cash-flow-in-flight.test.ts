import pg from 'pg';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

const IN_FLIGHT = 2;
const FORECASTS = 6;

/** The forecasts insights works out (`active`) and those waiting for a slot (`insights_cash_flow_forecasts`). */
async function forecastsInFlight(metricsUrl: string): Promise<{ active: number; waiting: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const state = (label: string) =>
    Number(new RegExp(`^insights_cash_flow_forecasts\\{state="${label}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { active: state('active'), waiting: state('waiting') };
}

/**
 * Insights' bound on the forecasts in flight: a burst is let through at most that many at a time, the rest wait in
 * order, and every one still gets the whole forecast. The forecasts are held by a lock on insights' goal reminders
 * (each forecast reads them), so the burst is in flight at once whatever the machine's speed.
 */
describe('insights: cash-flow forecasts in flight are bounded by CASH_FLOW_IN_FLIGHT', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start({
      env: { RATE_LIMIT_MAX: '100000' },
      serviceEnv: { insights: { CASH_FLOW_IN_FLIGHT: String(IN_FLIGHT) } },
    });
    tenant = await stack.tenant();
    const account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    await tenant.api.post('/v1/transactions', {
      title: 'Aluguel',
      is_expense: true,
      account_id: account,
      amount: 150000,
    });
  });
  afterAll(() => stack?.stop());

  it('when more forecasts are asked at once than the bound, then insights works out that many, queues the rest, and every answer is the whole forecast', async () => {
    const alone = await tenant.api.get('/v1/reports/cash-flow');
    expect(alone.status).toBe(200);
    const metrics = `${stack.service('insights').url}/metrics`;
    const side = new pg.Client({ connectionString: stack.databaseUrl });
    await side.connect();
    try {
      await side.query('begin');
      await side.query('lock table insights.goal_reminders in access exclusive mode');
      const burst = Array.from({ length: FORECASTS }, () => tenant.api.get('/v1/reports/cash-flow'));
      // every forecast reached insights: the bound's worth wait on the lock, the others on the gate
      const held = await waitFor(async () => {
        const forecasts = await forecastsInFlight(metrics);
        return forecasts.active + forecasts.waiting === FORECASTS && forecasts;
      });
      expect(held).toEqual({ active: IN_FLIGHT, waiting: FORECASTS - IN_FLIGHT });
      await side.query('commit');
      for (const answer of await Promise.all(burst)) {
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(alone.body);
      }
    } finally {
      await side.end();
    }
    expect(await forecastsInFlight(metrics)).toEqual({ active: 0, waiting: 0 });
  });
});
