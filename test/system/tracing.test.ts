import { startTelemetry } from '@finance/shared/telemetry/tracing';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

describe('tracing: one trace from the gateway through the service to the worker', () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: { shutdown(): Promise<void> } | null;
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    telemetry = await startTelemetry('finance-test', undefined, {
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(async () => {
    await stack?.stop();
    await telemetry?.shutdown();
  });

  const serverSpan = (service: string, name: string) => (span: ReadableSpan) =>
    span.kind === SpanKind.SERVER && span.attributes['finance.service'] === service && span.name === name;

  it('when an account is created, then gateway, ledger, and insights worker spans share one trace id', async () => {
    exporter.reset();
    const response = await tenant.api.post('/v1/accounts', { name: 'Conta rastreada', logo: '341' });
    expect(response.status).toBe(201);
    const gateway = await waitFor(async () =>
      exporter.getFinishedSpans().find(serverSpan('gateway', 'POST /v1/accounts')),
    );
    const traceId = gateway.spanContext().traceId;
    const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);

    const ledger = inTrace().find(serverSpan('ledger', 'POST /v1/accounts'));
    expect(ledger?.parentSpanContext?.spanId).toBe(gateway.spanContext().spanId);
    const handled = await waitFor(async () =>
      inTrace().find((span) => span.kind === SpanKind.CONSUMER && span.name === 'process account.created'),
    );
    // a job carries a batch of events from many requests: each event's span joins the trace that recorded it
    expect(handled.parentSpanContext?.spanId).toBe(ledger?.spanContext().spanId);
    expect(handled.attributes['messaging.message.id']).toEqual(expect.any(String));
    // and links the span of the job that carried it
    expect(handled.links).toHaveLength(1);
    // the job's span ends after the batch's last event: it may still be open when this event's span is found
    const job = await waitFor(async () =>
      exporter.getFinishedSpans().find((span) => span.spanContext().spanId === handled.links[0].context.spanId),
    );
    expect(job).toMatchObject({ kind: SpanKind.CONSUMER, name: 'process insights.ledger-events' });
  });

  it('when a request carries a traceparent, then the gateway continues that trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await tenant.api.get('/v1/accounts', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(response.status).toBe(200);
    const spans = await waitFor(async () => {
      const found = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
      return found.length >= 2 && found;
    });
    expect(spans.map((span) => span.attributes['finance.service']).sort()).toEqual(['gateway', 'ledger']);
  });
});
