import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process; every service exposes it at /metrics. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by route and status',
  labelNames: ['service', 'method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'Background job duration by queue and outcome',
  labelNames: ['queue', 'outcome'],
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'job_failures_total',
  help: 'Failed job attempts by queue',
  labelNames: ['queue'],
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'queue_depth',
  help: 'Jobs waiting, delayed or active per queue',
  labelNames: ['queue', 'state'],
  registers: [registry],
});

export const outboxLag = new Gauge({
  name: 'outbox_lag_seconds',
  help: 'Age of the oldest unpublished outbox event',
  labelNames: ['service'],
  registers: [registry],
});

export const outboxPending = new Gauge({
  name: 'outbox_pending_events',
  help: 'Outbox events not yet relayed to the queue',
  labelNames: ['service'],
  registers: [registry],
});

export function httpMetrics(service: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = httpDuration.startTimer({ service, method: req.method });
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      end({ route, status: String(res.statusCode) });
    });
    next();
  };
}
