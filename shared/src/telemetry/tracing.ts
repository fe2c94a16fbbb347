import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TelemetryOptions {
  /** Extra span processors (tests register an in-memory exporter here). */
  spanProcessors?: SpanProcessor[];
  /** Patch undici, pg and ioredis (production); tests leave it off because jest loads modules itself. */
  instrument?: boolean;
}

/** True once the undici instrumentation injects trace headers itself, so our code must not add a second copy. */
let undiciInjects = false;

/**
 * Starts OpenTelemetry tracing: an OTLP/HTTP exporter when an endpoint is configured (the standard
 * OTEL_EXPORTER_OTLP_* variables tune it), off by default so a laptop run pays nothing. Call it before
 * importing the service's modules, so pg, ioredis and undici load already patched.
 */
export async function startTelemetry(
  service: string,
  endpoint: string | undefined,
  options: TelemetryOptions = {},
): Promise<{ shutdown(): Promise<void> } | null> {
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
  const instrumentations = instrument ? await loadInstrumentations() : [];
  const sdk = new NodeSDK({ serviceName: service, spanProcessors: processors, instrumentations });
  sdk.start();
  undiciInjects = instrument;
  return sdk;
}

async function loadInstrumentations() {
  const [{ UndiciInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  return [
    new UndiciInstrumentation(),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
}

/** Adds the W3C `traceparent`/`tracestate` of the active span to outgoing headers (gateway → service). */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!undiciInjects) propagation.inject(context.active(), headers);
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
