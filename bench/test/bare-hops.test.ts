import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BareHops, startBareHops } from '../bare-hops.ts';

// The bench's bare relays: through one or two of them a request reaches the server and its answer comes back whole.
describe('benchmark bare relays', () => {
  let server: Server;
  let origin: string;
  let hops: BareHops;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.stringify({ method: req.method, url: req.url, received: Buffer.concat(chunks).toString() });
        res.statusCode = req.method === 'POST' ? 201 : 200;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        // an answer of a few megabytes, as a bill's, arrives in many pieces
        res.end(`{"echo":${body},"filler":"${'x'.repeat(3_000_000)}"}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    hops = await startBareHops(origin);
  });
  afterAll(async () => {
    await hops?.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([1, 2] as const)(
    'when a request crosses %i relay(s), then status, type, body and its length come back',
    async (count) => {
      const url = hops.through(count, `${origin}/reads/bill?x=1`);
      expect(url.startsWith(origin)).toBe(false);
      const got = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      const text = await got.text();
      expect(got.status).toBe(201);
      expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(got.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      const answer = JSON.parse(text);
      expect(answer.echo).toEqual({ method: 'POST', url: '/reads/bill?x=1', received: '{"a":1}' });
      expect(answer.filler).toHaveLength(3_000_000);
      expect(Object.keys(hops.pids(count))).toHaveLength(count);
    },
  );
});
