import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drive } from '../load.ts';

// The bench's load driver against a server whose answers take 250 ms: only the counted window's answers count.
describe('benchmark load driver', () => {
  let server: Server;
  let url: string;
  let answered = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      setTimeout(() => {
        answered += 1;
        res.statusCode = req.url === '/half' && answered % 2 === 0 ? 503 : 200;
        res.end('{}');
      }, 250);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('when driven with a warm-up, then the window starts after it and counts only the answers inside it', async () => {
    const events: string[] = [];
    let answeredAtSteady = 0;
    const result = await drive({ url, method: 'GET', headers: {}, connections: 2, warmup: 1, seconds: 2 }, () => {
      events.push('steady');
      answeredAtSteady = answered;
    }).then((figures) => {
      events.push('done');
      return figures;
    });
    expect(events).toEqual(['steady', 'done']);
    // the warm-up's answers (2 connections × 4 a second) are not in the window's count
    expect(answeredAtSteady).toBeGreaterThanOrEqual(4);
    // 2 connections × 4 answers a second × 2 s, give or take the window's edges (the whole run: 24)
    expect(result.requests).toBeGreaterThanOrEqual(10);
    expect(result.requests).toBeLessThanOrEqual(18);
    expect(result.seconds).toBeGreaterThan(1.8);
    expect(result.rps).toBeCloseTo(result.requests / result.seconds, 5);
    expect(result.p50).toBeGreaterThanOrEqual(245);
    expect(result.non2xx).toBe(0);
  });

  it('when some answers are not 2xx, then the window counts them apart', async () => {
    const result = await drive({
      url: `${url}/half`,
      method: 'GET',
      headers: {},
      connections: 2,
      warmup: 0.5,
      seconds: 1,
    });
    expect(result.non2xx).toBeGreaterThan(0);
    expect(result.non2xx).toBeLessThan(result.requests);
  });
});
