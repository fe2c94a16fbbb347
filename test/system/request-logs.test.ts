import { startTelemetry } from '@finance/shared/telemetry/tracing';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { startGateway } from '../../services/gateway/src/start-gateway.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

describe('request logs: one compact line per request', () => {
  let telemetry: { shutdown(): Promise<void> } | null;
  let stack: TestStack;
  let tenant: Tenant;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const lines: string[] = [];

  beforeAll(async () => {
    telemetry = await startTelemetry('finance-test', undefined, {
      spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())],
    });
    stack = await TestStack.start();
    tenant = await stack.tenant();
    gateway = await startGateway(
      loadGatewayConfig({
        ...stack.env,
        DATABASE_URL: stack.databaseUrl,
        MIGRATE_ON_START: 'false',
        LEDGER_URL: stack.service('ledger').url,
        BILLING_URL: stack.service('billing').url,
        INSIGHTS_URL: stack.service('insights').url,
      }),
      pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    );
  });
  afterAll(async () => {
    await gateway?.stop();
    await stack?.stop();
    await telemetry?.shutdown();
  });

  it('when a keyed request with a traceparent is answered, then one line holds method, route, status, duration, request, trace and key ids, and no headers', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const authorization = `Basic ${Buffer.from(`${tenant.key.token}:${tenant.key.secret}`).toString('base64')}`;
    lines.length = 0;
    const response = await fetch(`${gateway.url}/v1/accounts/0196a0e4-0000-7000-8000-000000000000`, {
      headers: { authorization, traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-request-id': 'req-log-1' },
    });
    expect(response.status).toBe(404);
    await fetch(`${gateway.url}/healthz`);
    const logged = await waitFor(async () => lines.find((line) => line.includes('req-log-1')));

    expect(lines.filter((line) => line.includes('"msg":"request"'))).toHaveLength(1); // probes are not logged
    expect(logged.length).toBeLessThan(400);
    expect(JSON.parse(logged)).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      route: '/v1/accounts/:id',
      status: 404,
      duration_ms: expect.any(Number),
      req_id: 'req-log-1',
      trace_id: traceId,
      key_id: tenant.key.keyId,
    });
    expect(logged).not.toMatch(/headers|authorization|stack/);
  });

  it('when a request id is well-formed it is kept and echoed; when malformed or missing, a new uuid replaces it', async () => {
    const authorization = `Basic ${Buffer.from(`${tenant.key.token}:${tenant.key.secret}`).toString('base64')}`;
    const idOf = async (given?: string) => {
      const headers: Record<string, string> = { authorization };
      if (given !== undefined) headers['x-request-id'] = given;
      const response = await fetch(`${gateway.url}/v1/accounts`, { headers });
      expect(response.status).toBe(200);
      return response.headers.get('x-request-id');
    };
    expect(await idOf('client-req_42')).toBe('client-req_42');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const given of ['has spaces', 'x'.repeat(129), '<script>', undefined]) expect(await idOf(given)).toMatch(uuid);
  });
});
