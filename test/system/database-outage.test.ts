import { createServer } from 'node:http';
import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { pino } from 'pino';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { startGateway } from '../../services/gateway/src/start-gateway.ts';
import { freePort } from '../support/free-port.ts';
import { DisposablePostgres } from '../support/postgres-server.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

describe('a PostgreSQL outage answers 503 with Retry-After, logged once, and heals by itself', () => {
  let postgres: DisposablePostgres;
  let stack: TestStack;
  let tenant: Tenant;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const logLines: Array<Record<string, unknown>> = [];
  let rawLog = '';

  beforeAll(async () => {
    postgres = new DisposablePostgres(await freePort());
    await postgres.start();
    stack = await TestStack.start({ databaseServerUrl: postgres.url });
    tenant = await stack.tenant();
    // a second gateway on the same database and services, whose log this test reads
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          rawLog += line;
          logLines.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    );
    gateway = await startGateway(
      loadGatewayConfig({
        ...stack.env,
        DATABASE_URL: stack.databaseUrl,
        MIGRATE_ON_START: 'false',
        LEDGER_URL: stack.service('ledger').url,
        BILLING_URL: stack.service('billing').url,
        INSIGHTS_URL: stack.service('insights').url,
      }),
      logger,
    );
  });
  afterAll(async () => {
    try {
      await postgres?.start();
      await gateway?.stop();
      await stack?.stop();
    } finally {
      await postgres?.destroy();
    }
  });

  const auth = () => ({
    authorization: `Basic ${Buffer.from(`${tenant.key.token}:${tenant.key.secret}`).toString('base64')}`,
  });
  const timed = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const response = await fetch(`${gateway.url}${path}`, { ...init, headers: { ...auth(), ...init.headers } });
    const body = (await response.json()) as Record<string, unknown>;
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body,
      ms: performance.now() - started,
    };
  };

  it('when PostgreSQL stops, then every API request answers 503 with Retry-After at once (19 in 20 within 100 ms), the log holds one line and no stack, and requests succeed once it returns', async () => {
    expect((await timed('/v1/accounts')).status).toBe(200);
    const before = logLines.length;

    await postgres.stop();
    try {
      const requests: Array<[string, RequestInit?]> = [
        ['/v1/accounts'],
        ['/v1/credit-cards'],
        ['/v1/spending-limits'],
        [
          '/v1/accounts',
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Conta","logo":"341"}' },
        ],
      ];
      const answers = [];
      for (let round = 0; round < 10; round += 1) {
        for (const [path, init] of requests) answers.push(await timed(path, init));
      }
      for (const answer of answers) {
        expect(answer).toMatchObject({
          status: 503,
          retryAfter: '5',
          body: { message: 'Serviço temporariamente indisponível', statusCode: 503, error: 'Service Unavailable' },
        });
      }
      // at once: 19 in 20 under 100 ms and none waiting a second for a connection (a 2-core machine busy with other
      // suites delays a single answer past 100 ms on its own; the times shown on failure)
      const times = answers.map((answer) => Math.round(answer.ms)).sort((a, b) => a - b);
      const late = times.filter((ms) => ms >= 100).length;
      expect({ times, atOnce: late <= times.length / 20 && (times.at(-1) ?? 0) < 1000 }).toEqual({
        times,
        atOnce: true,
      });
      const during = logLines.slice(before);
      expect(
        during.filter((line) => line.msg === 'dependency unavailable: answering 503 until it returns'),
      ).toHaveLength(1);
      expect(during.filter((line) => line.level === 50)).toEqual([]); // no error lines
      expect(rawLog).not.toMatch(/"stack"|\\n\s+at /);
    } finally {
      await postgres.start();
    }
    await waitFor(async () => (await timed('/v1/accounts')).status === 200, 15_000, 100);
    const created = await timed('/v1/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"De volta","logo":"341"}',
    });
    expect(created.status).toBe(201);
    expect(logLines.filter((line) => line.msg === 'dependency available again')).toHaveLength(1);
  });

  it('when PostgreSQL is down, then a service called directly answers 503 with Retry-After too', async () => {
    const ledger = stack.service('ledger');
    const context = signContext(
      { userId: tenant.userId, profileId: null, business: false, keyId: null },
      ledger.runtime.config.INTERNAL_SECRET,
    );
    await postgres.stop();
    try {
      const response = await fetch(`${ledger.url}/v1/accounts`, { headers: { [CONTEXT_HEADER]: context } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
    } finally {
      await postgres.start();
    }
    await waitFor(
      async () => (await fetch(`${ledger.url}/v1/accounts`, { headers: { [CONTEXT_HEADER]: context } })).ok,
      15_000,
      100,
    );
  });

  it('when a service cannot be reached, then the gateway answers 503 with Retry-After and logs one line when it goes and one when it returns', async () => {
    const port = await freePort();
    const lines: Array<Record<string, unknown>> = [];
    const lonely = await startGateway(
      loadGatewayConfig({
        ...stack.env,
        DATABASE_URL: stack.databaseUrl,
        MIGRATE_ON_START: 'false',
        LEDGER_URL: `http://127.0.0.1:${port}`,
        BILLING_URL: stack.service('billing').url,
        INSIGHTS_URL: stack.service('insights').url,
      }),
      pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }),
    );
    const fakeLedger = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"data":[]}');
    });
    try {
      for (let i = 0; i < 5; i += 1) {
        const response = await fetch(`${lonely.url}/v1/accounts`, { headers: auth() });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
      }
      await new Promise<void>((resolve) => fakeLedger.listen(port, '127.0.0.1', resolve));
      expect((await fetch(`${lonely.url}/v1/accounts`, { headers: auth() })).status).toBe(200);
    } finally {
      fakeLedger.close();
      await lonely.stop();
    }
    const states = lines
      .filter((line) => line.dependency === 'ledger')
      .map((line) => [line.msg, line.requests_refused]);
    expect(states).toEqual([
      ['dependency unavailable: answering 503 until it returns', undefined],
      ['dependency available again', 5],
    ]);
    expect(lines.filter((line) => line.level === 50)).toEqual([]);
  });
});
