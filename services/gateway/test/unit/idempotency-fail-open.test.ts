import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { IdempotencyStore } from '../../src/data-access/idempotency-store.ts';
import { idempotent } from '../../src/entry-points/http/idempotency.ts';

describe('idempotency: fails open without Redis', () => {
  let server: Server;
  let redis: Redis;
  let calls = 0;
  const warnings: string[] = [];

  beforeAll(async () => {
    // nothing listens on port 1: the client never becomes ready
    redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    const app = express();
    app.use((req, res, next) => {
      (req as unknown as { log: unknown }).log = { warn: (_obj: unknown, message: string) => warnings.push(message) };
      res.locals.key = { context: { keyId: 'key-1' }, scopes: ['write'] };
      next();
    });
    app.use(express.json());
    app.post(
      '/v1/things',
      idempotent(new IdempotencyStore(redis, 'unit'), async (_req, res) => {
        calls += 1;
        res.status(201).json({ call: calls });
      }),
    );
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, () => resolve(listening));
    });
  });
  afterAll(async () => {
    redis.disconnect();
    await new Promise((resolve) => server.close(resolve));
  });

  it('when Redis is unreachable, then repeats with the same key reach the service and a warning is logged', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/things`;
    const send = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'same' },
        body: JSON.stringify({ a: 1 }),
      });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await second.json()).toEqual({ call: 2 });
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(warnings).toHaveLength(2);
  });
});
