import { EventEmitter } from 'node:events';
import { traceRequests } from '@finance/shared/telemetry/http-tracing';
import { tracingStarted } from '@finance/shared/telemetry/tracing';
import type { Request, Response } from 'express';

describe('traceRequests: the request span of a process whose http is not instrumented', () => {
  it('when tracing never started (no endpoint), then a request goes on at once and sets nothing up for a span', () => {
    expect(tracingStarted()).toBe(false);
    const res = new EventEmitter();
    const req = { method: 'POST', path: '/v1/transactions', headers: { traceparent: '00-'.padEnd(55, '1') } };
    let called = 0;
    traceRequests('ledger')(req as unknown as Request, res as unknown as Response, () => {
      called += 1;
    });
    expect(called).toBe(1);
    // no span to end when the answer closes
    expect(res.listenerCount('close')).toBe(0);
  });
});
