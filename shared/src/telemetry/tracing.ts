import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../logger.ts';

export interface TelemetryOptions {
  /** Extra span processors (tests register an in-memory exporter here). */
  spanProcessors?: SpanProcessor[];
  /** Patch http, express, undici, pg and ioredis (production); tests leave it off because jest loads modules itself. */
  instrument?: boolean;
}

/** What `startTelemetry` returns: the SDK, whose `shutdown()` exports the spans still batched. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/** Paths whose requests get no span: probes and scrapes every few seconds would bury the traces that matter. */
export const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Query parameters that carry a secret (the Pluggy webhook URL's `token`): spans record them as `REDACTED`. */
export const SECRET_QUERY_PARAMS = ['token'];

/** A URL or query string with the values of SECRET_QUERY_PARAMS replaced by `REDACTED`. */
export function redactSecretQuery(text: string): string {
  return text.replace(
    new RegExp(`([?&](?:${SECRET_QUERY_PARAMS.join('|')})=)[^&#]*`, 'g'),
    (_match, name: string) => `${name}REDACTED`,
  );
}

/**
 * True once the http, express and undici instrumentations patch this process: they make the server spans and
 * inject trace headers themselves, so our middleware and our header injection must stand aside.
 */
let instrumented = false;

/** Whether the standard http/express instrumentations make this process's server spans. */
export const httpInstrumented = () => instrumented;

/** True once an SDK records this process's spans: before that, a request's span is a no-op that still costs its setup. */
let recording = false;

/** Whether spans are recorded in this process (`startTelemetry` started an SDK). */
export const tracingStarted = () => recording;

/**
 * Starts OpenTelemetry tracing: an OTLP/HTTP exporter when an endpoint is configured (the standard
 * OTEL_EXPORTER_OTLP_* variables tune it), off by default so a laptop run pays nothing. Call it before
 * importing the service's modules, so pg, ioredis and undici load already patched.
 */
export async function startTelemetry(
  service: string,
  endpoint: string | undefined,
  options: TelemetryOptions = {},
): Promise<Telemetry | null> {
  const processors = [...(options.spanProcessors ?? [])];
  if (!endpoint && processors.length === 0) return null;
  const instrument = options.instrument ?? Boolean(endpoint);
  // ESM imports bypass require hooks: this loader hook lets the instrumentations patch imported packages
  if (instrument)
    register('@opentelemetry/instrumentation/hook.mjs', pathToFileURL(path.join(process.cwd(), 'package.json')));
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  if (endpoint) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` })));
  }
  const instrumentations = instrument ? await loadInstrumentations(service) : [];
  const sdk = new NodeSDK({ serviceName: service, spanProcessors: processors, instrumentations });
  sdk.start();
  instrumented = instrument;
  recording = true;
  return sdk;
}

async function loadInstrumentations(service: string) {
  const [
    { HttpInstrumentation },
    { ExpressInstrumentation, ExpressLayerType },
    { UndiciInstrumentation },
    { PgInstrumentation },
    { IORedisInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  return [
    // SERVER spans continuing the caller's W3C traceparent, renamed `METHOD /route` from express's matched route
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '/').split('?')[0]),
      startIncomingSpanHook: () => ({ 'finance.service': service }),
      redactedQueryParamsServer: SECRET_QUERY_PARAMS,
      redactedQueryParams: SECRET_QUERY_PARAMS,
    }),
    // router and handler spans; one per middleware (helmet, logs, metrics…) would only add noise
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    // the gateway forwards the webhook's query to the ledger: its client span must not carry the token either
    new UndiciInstrumentation({
      requestHook: (span, request) => {
        if (!/[?&]token=/.test(request.path)) return;
        span.setAttribute('url.full', redactSecretQuery(`${request.origin}${request.path}`));
        span.setAttribute('url.query', redactSecretQuery(request.path.slice(request.path.indexOf('?'))));
      },
    }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
}

/** Adds the W3C `traceparent`/`tracestate` of the active span to outgoing headers (gateway → service). */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!instrumented) propagation.inject(context.active(), headers);
  return headers;
}

/** The W3C traceparent of the active span, kept with work that runs later (outbox events). */
export function activeTraceparent(): string | undefined {
  if (!trace.getSpan(context.active())?.spanContext().traceId) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Job metadata (BullMQ's propagation format) that makes a stored traceparent the parent of the job's spans. */
export const jobTraceMetadata = (traceparent: string | undefined) =>
  traceparent ? { metadata: JSON.stringify({ traceparent }) } : undefined;

/**
 * Runs the handling of one event of a relayed batch in a consumer span of the trace that recorded it (its stored
 * traceparent), linked to the span of the job that carried the batch: each request's trace still shows its event.
 */
export function inEventSpan<T>(
  event: { event_id: string; type: string; traceparent?: string },
  work: () => Promise<T>,
): Promise<T> {
  const job = trace.getActiveSpan()?.spanContext();
  const parent = event.traceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent: event.traceparent })
    : context.active();
  const options = {
    kind: SpanKind.CONSUMER,
    links: job ? [{ context: job }] : [],
    attributes: { 'messaging.message.id': event.event_id },
  };
  return trace.getTracer('finance-queues').startActiveSpan(`process ${event.type}`, options, parent, async (span) => {
    try {
      return await work();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Flushes and stops tracing at the end of a stop path, so the spans of the last requests are exported rather
 * than lost with the process; gives up after `timeoutMs` (an unreachable collector must not hold the exit).
 */
export async function flushTelemetry(
  telemetry: Telemetry | null | undefined,
  timeoutMs: number,
  logger?: Pick<Logger, 'warn'>,
): Promise<void> {
  if (!telemetry) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      logger?.warn({ timeoutMs }, 'trace export did not finish in time; the last spans are dropped');
      resolve();
    }, timeoutMs);
  });
  const flushed = telemetry
    .shutdown()
    .catch((err: Error) => logger?.warn({ err: err.message }, 'trace export failed at shutdown'));
  try {
    await Promise.race([flushed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
