import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { startGateway } from '../../services/gateway/src/start-gateway.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const SECRET = 'admin-secret-for-metrics-0123456789';
const METRICS = [
  'http_request_duration_seconds',
  'job_duration_seconds',
  'job_failures_total',
  'queue_depth',
  'outbox_lag_seconds',
  'outbox_pending_events',
];

describe('metrics: /metrics on the gateway (behind ADMIN_SECRET, closed in production without it) and every service (open)', () => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await TestStack.start({ env: { ADMIN_SECRET: SECRET } });
    tenant = await stack.tenant();
    // traffic that goes through the gateway, the ledger, its outbox and the insights worker
    expect((await tenant.api.post('/v1/accounts', { name: 'Conta medida', logo: '341' })).status).toBe(201);
    expect((await tenant.api.get('/v1/accounts')).status).toBe(200);
  });
  afterAll(() => stack?.stop());

  // the gateway's /metrics is on the public port: it asks for ADMIN_SECRET when set
  const scrape = async (url: string) => {
    const headers: Record<string, string> = url === stack.url ? { authorization: `Bearer ${SECRET}` } : {};
    const response = await fetch(`${url}/metrics`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };

  it('when ADMIN_SECRET is set, then the gateway /metrics is 401 without it or with a wrong one, 200 as Basic admin', async () => {
    for (const authorization of [undefined, 'Bearer wrong-secret', tenant.api.authorization() as string]) {
      const response = await fetch(`${stack.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(await response.json()).toMatchObject({
        message: 'Credenciais de administrador inválidas',
        statusCode: 401,
      });
    }
    const basic = `Basic ${Buffer.from(`admin:${SECRET}`).toString('base64')}`;
    const response = await fetch(`${stack.url}/metrics`, { headers: { authorization: basic } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE http_request_duration_seconds ');
  });

  it('when a production gateway has no ADMIN_SECRET, then /metrics is an unknown path (401, 404 with a key) unless METRICS_PUBLIC opens it', async () => {
    const production = (extra: Record<string, string>) =>
      startGateway(
        loadGatewayConfig({
          ...stack.env,
          ADMIN_SECRET: undefined,
          NODE_ENV: 'production',
          INTERNAL_SECRET: 'internal-secret-of-a-production-test-0123456789',
          KEY_PEPPER: stack.pepper,
          MIGRATE_ON_START: 'false',
          ...extra,
        }),
      );
    const closed = await production({});
    try {
      const anonymous = await fetch(`${closed.url}/metrics`);
      expect([anonymous.status, await anonymous.text()]).toEqual([
        401,
        expect.stringContaining('Credenciais de API inválidas'),
      ]);
      const withKey = await fetch(`${closed.url}/metrics`, {
        headers: { authorization: tenant.api.authorization() as string },
      });
      expect([withKey.status, await withKey.text()]).toEqual([404, expect.stringContaining('Rota não encontrada')]);
    } finally {
      await closed.stop();
    }
    const opened = await production({ METRICS_PUBLIC: 'true' });
    try {
      const response = await fetch(`${opened.url}/metrics`);
      expect([response.status, await response.text()]).toEqual([200, expect.stringContaining('# TYPE ')]);
    } finally {
      await opened.stop();
    }
  });

  it('when scraped (the gateway with the secret, services without credentials), then each exposes every listed metric', async () => {
    for (const url of [stack.url, ...stack.services.map((service) => service.url)]) {
      const text = await scrape(url);
      for (const name of METRICS) expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('when traffic passed, then latency is labelled by service, route and status, and the job and queue series exist', async () => {
    const text = await waitFor(async () => {
      const body = await scrape(stack.url);
      return body.includes('job_duration_seconds_count{queue="insights.ledger-events",outcome="completed"}') && body;
    });
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="gateway",method="POST",route="\/v1\/accounts",status="201"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="ledger",method="POST",route="\/v1\/accounts",status="201"\} \d+/,
    );
    expect(text).toMatch(/queue_depth\{queue="insights.ledger-events",state="waiting"\} \d+/);
    expect(text).toMatch(/outbox_lag_seconds\{service="ledger"\} [\d.e-]+/);
  });
});
