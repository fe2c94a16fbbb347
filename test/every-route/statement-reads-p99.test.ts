import { publicRoutes } from '@finance/shared/contracts/index';
import { pathOf } from '@finance/shared/contracts/route';
import { type Tenant, TestStack } from '../support/stack.ts';
import { hostileStatementFiles } from '../support/statement-files.ts';
import { waitFor } from '../support/wait-for.ts';

/** The read another context must keep answering fast while the files arrive and are read. */
const P99_MS = 250;

const settled = (state: string) => state === 'completed' || state === 'failed';

/**
 * Every statement file route of the table, with hostile 10 MiB files of each accepted type, in one process holding
 * the gateway, the services and the statement-file worker (the worst case: in production the files are read by a
 * process of their own): storing and reading them never holds the event loop, so another context's reads keep
 * their p99 under 250 ms.
 */
describe('statement files never stall other contexts', () => {
  let stack: TestStack;
  let uploader: Tenant;
  let reader: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { RATE_LIMIT_MAX: '100000' } });
    uploader = await stack.tenant();
    reader = await stack.tenant();
    await reader.api.post('/v1/accounts', { name: 'Leitora', logo: '341' });
  });
  afterAll(() => stack?.stop());

  it('when hostile 10 MiB files of each type go to every statement route, then another context reads with p99 under 250 ms and no answer is a 500', async () => {
    const account = (await uploader.api.post('/v1/accounts', { name: 'Extratos', logo: '341' })).body.id;
    const card = (
      await uploader.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: account,
        closing_date: 3,
        expiring_date: 10,
        limit: 100_000,
      })
    ).body.id;
    const routes = publicRoutes.filter((route) => route.file);
    expect(routes.map((route) => route.operationId).sort()).toEqual(['importAccountStatement', 'importCardStatement']);

    const latencies: number[] = [];
    let reading = true;
    const readLoop = async () => {
      while (reading) {
        const started = performance.now();
        const response = await reader.api.get('/v1/accounts');
        latencies.push(performance.now() - started);
        expect(response.status).toBe(200);
      }
    };
    const loops = [readLoop(), readLoop()];

    const outcomes: Array<[string, number, string | null]> = [];
    const files = hostileStatementFiles();
    for (const route of routes) {
      const path = pathOf(route, { id: route.operationId === 'importCardStatement' ? card : account });
      // each route's files at once
      await Promise.all(
        files.map(async (file) => {
          const response = await uploader.api.request('POST', `${path}${file.query ? `?${file.query}` : ''}`, {
            rawBody: file.body,
            headers: { 'content-type': file.contentType },
          });
          let state: string | null = null;
          if (response.status < 300) {
            const job = await waitFor(async () => {
              const current = (await uploader.api.get(`/v1/jobs/${response.body.job.id}`)).body;
              return settled(current.state) && current;
            }, 120_000);
            state = job.state;
          }
          outcomes.push([`${route.operationId} ${file.name}`, response.status, state]);
        }),
      );
    }
    reading = false;
    await Promise.all(loops);

    // refused (400, or a failed job naming the line) or read to the end; never a server error
    for (const [name, status] of outcomes) expect({ name, status: status < 500 }).toEqual({ name, status: true });
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)];
    expect(latencies.length).toBeGreaterThan(100);
    expect({ p99: Math.round(p99), under: p99 < P99_MS }).toEqual({ p99: Math.round(p99), under: true });
  }, 300_000);
});
