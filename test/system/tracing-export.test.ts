import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { freePort } from '../support/free-port.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

const ROOT = join(__dirname, '..', '..');
const basic = (tenant: Tenant) => `Basic ${Buffer.from(`${tenant.key.token}:${tenant.key.secret}`).toString('base64')}`;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  /** Added by the receiver: the instrumentation scope that made the span. */
  scope: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
}
const SERVER = 2; // OTLP SpanKind SPAN_KIND_SERVER

/** A local OTLP/HTTP receiver (JSON, the exporter's default) on 127.0.0.1 keeping every span it gets. */
async function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resource of body.resourceSpans ?? [])
          for (const { scope, spans: made } of resource.scopeSpans ?? [])
            for (const span of made ?? []) spans.push({ ...span, scope: scope?.name });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('tracing in a service process: the standard http/express instrumentations and the flush at stop', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await stack?.stop();
    await receiver?.close();
  });

  it('when the gateway process stops right after a request, then its server span, named by route and continuing the caller trace, is exported before exit', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['services/gateway/src/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        ...stack.env,
        PORT: String(port),
        MIGRATE_ON_START: 'false',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        LEDGER_URL: stack.service('ledger').url,
        BILLING_URL: stack.service('billing').url,
        INSIGHTS_URL: stack.service('insights').url,
      },
    });
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok, 30_000);

    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const callerSpanId = 'b7ad6b7169203331';
    const response = await fetch(`${base}/v1/accounts`, {
      headers: { authorization: basic(tenant), traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    // the batch processor exports every 5 s; stopping at once leaves this span to the flush in stop()
    expect(receiver.spans.filter((span) => span.traceId === traceId)).toEqual([]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const inTrace = receiver.spans.filter((span) => span.traceId === traceId);
    const server = inTrace.find((span) => span.kind === SERVER);
    expect(server).toMatchObject({
      name: 'GET /v1/accounts',
      parentSpanId: callerSpanId,
      scope: '@opentelemetry/instrumentation-http',
    });
    const attribute = (key: string) => server?.attributes.find((entry) => entry.key === key)?.value;
    expect(attribute('http.route')).toEqual({ stringValue: '/v1/accounts' });
    expect(attribute('finance.service')).toEqual({ stringValue: 'gateway' });
    expect(Number(attribute('http.response.status_code')?.intValue)).toBe(200);
    // one server span per request: our middleware stands aside where the instrumentations patch
    expect(inTrace.filter((span) => span.kind === SERVER)).toHaveLength(1);
    // the gateway's call to the ledger continues the same trace (undici instrumentation)
    expect(inTrace.some((span) => span.kind === 3 && span.parentSpanId !== undefined)).toBe(true);
    // probes are not traced
    expect(receiver.spans.some((span) => span.name.includes('readyz'))).toBe(false);
  });

  it('when a service process (ledger) stops right after a request, then its server span is exported before exit', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['services/ledger/src/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        ...stack.env,
        PORT: String(port),
        ROLE: 'api',
        MIGRATE_ON_START: 'false',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      },
    });
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok, 30_000);

    const traceId = '5b8efff798038103d269b633813fc60c';
    const context = signContext(
      { userId: tenant.userId, profileId: null, business: false, keyId: null },
      stack.service('ledger').runtime.config.INTERNAL_SECRET,
    );
    const response = await fetch(`${base}/v1/accounts`, {
      headers: { [CONTEXT_HEADER]: context, traceparent: `00-${traceId}-eee19b7ec3c1b174-01` },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(receiver.spans.filter((span) => span.traceId === traceId)).toEqual([]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const server = receiver.spans.filter((span) => span.traceId === traceId && span.kind === SERVER);
    expect(server).toHaveLength(1);
    expect(server[0]).toMatchObject({ name: 'GET /v1/accounts', scope: '@opentelemetry/instrumentation-http' });
    // its database queries are children in the same trace (pg instrumentation, loaded before the ORM)
    expect(receiver.spans.some((span) => span.traceId === traceId && span.scope.includes('pg'))).toBe(true);
  });
});
