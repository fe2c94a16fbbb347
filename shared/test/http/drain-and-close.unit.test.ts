import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import express from 'express';
import { drainAndClose, listen } from '../../src/http/server.ts';

const TIMEOUT_MS = 10_000;

describe('drainAndClose: a stop waits for the requests in flight, not for connections with nothing in them', () => {
  it('when a client holds a connection that sent nothing, one idle after its answer and one request in flight, then the stop waits only for that request, which is answered', async () => {
    let slowStarted = false;
    const app = express();
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    app.get('/slow', async (_req, res) => {
      slowStarted = true;
      await new Promise((resolve) => setTimeout(resolve, 300));
      res.send('slow ok');
    });
    const server = await listen(app, 0);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // a spare connection, as clients and load balancers open ahead of their requests
    const silent = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(silent, 'connect');
    const silentClosed = once(silent, 'close');
    silent.on('error', () => undefined);
    // a keep-alive connection whose answer has been read
    expect(await (await fetch(`${base}/`)).text()).toBe('ok');
    const slow = fetch(`${base}/slow`).then(async (answer) => [answer.status, await answer.text()]);
    while (!slowStarted) await new Promise((resolve) => setTimeout(resolve, 5));

    const startedAt = Date.now();
    await drainAndClose(server, { draining: false }, { delayMs: 0, timeoutMs: TIMEOUT_MS });
    const took = Date.now() - startedAt;

    expect(await slow).toEqual([200, 'slow ok']);
    await silentClosed;
    // the request's 300 ms, not the timeout
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
  }, 20_000);
});
