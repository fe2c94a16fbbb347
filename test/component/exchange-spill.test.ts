import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { type Answer, exchange } from '@finance/shared/http/exchange';
import { Agent } from 'undici';

/** A real HTTP server on 127.0.0.1 answering each request with `handle`. */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A body of `size` bytes that tells where each byte was (a shifted or lost chunk changes it). */
const patterned = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => i % 251));

/** A stream that takes each chunk after `delayMs`, holding 16 KB before it asks its writer to wait: a slow reader. */
function slowReader(delayMs: number) {
  const received: Buffer[] = [];
  let mostWaiting = 0;
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk);
      setTimeout(done, delayMs);
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: Buffer) => {
    const ok = write(chunk);
    mostWaiting = Math.max(mostWaiting, stream.writableLength);
    return ok;
  }) as typeof stream.write;
  return { stream, received, mostWaiting: () => mostWaiting };
}

describe('exchange passes a large answer on as it arrives (the gateway with its bills)', () => {
  const agent = new Agent();
  const servers: Server[] = [];
  afterAll(async () => {
    await agent.close();
    for (const server of servers) server.close();
  });

  it('when the body passes the bytes held, then the stream gets the answer so far once and the rest as it comes, every byte in order, at the pace of a slow reader', async () => {
    const body = patterned(1024 * 1024);
    const { server, origin } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      // written in 16 KB pieces so the answer arrives in many chunks
      for (let at = 0; at < body.length; at += 16 * 1024) res.write(body.subarray(at, at + 16 * 1024));
      res.end();
    });
    servers.push(server);
    const reader = slowReader(2);
    const starts: Array<{ statusCode: number; length: string | undefined; held: number }> = [];
    const answer = await exchange(agent, origin, {
      method: 'GET',
      path: '/',
      headers: {},
      spill: {
        afterBytes: 64 * 1024,
        start: (soFar: Answer) => {
          const held = soFar.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
          starts.push({ statusCode: soFar.statusCode, length: soFar.headers['content-length'] as string, held });
          for (const chunk of soFar.chunks) reader.stream.write(chunk);
          return reader.stream;
        },
      },
    });
    reader.stream.end();
    await once(reader.stream, 'finish');
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatchObject({ statusCode: 200, length: String(body.length) });
    expect(starts[0].held).toBeGreaterThan(64 * 1024);
    expect(starts[0].held).toBeLessThan(body.length);
    expect(answer).toMatchObject({ statusCode: 200, spilled: true, chunks: [] });
    expect(Buffer.concat(reader.received).equals(body)).toBe(true);
    // the exchange waited for the reader: what waited in it stayed near its 16 KB, not the megabyte
    expect(reader.mostWaiting()).toBeGreaterThan(16 * 1024);
    expect(reader.mostWaiting()).toBeLessThan(256 * 1024);
  });

  it('when the body stays within the bytes held, then it is collected whole and no stream is asked for', async () => {
    const body = patterned(32 * 1024);
    const { server, origin } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    });
    servers.push(server);
    let started = 0;
    const answer = await exchange(agent, origin, {
      method: 'GET',
      path: '/',
      headers: {},
      spill: {
        afterBytes: 64 * 1024,
        start: () => {
          started += 1;
          return new Writable({ write: (_chunk, _encoding, done) => done() });
        },
      },
    });
    expect(started).toBe(0);
    expect(answer.spilled).toBeUndefined();
    expect(Buffer.concat(answer.chunks).equals(body)).toBe(true);
  });

  it('when the service fails after the stream started, then the exchange rejects (the caller cuts its answer)', async () => {
    const { server, origin } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 1024 * 1024 });
      res.write(patterned(256 * 1024), () => res.socket?.destroy());
    });
    servers.push(server);
    const reader = slowReader(0);
    await expect(
      exchange(agent, origin, {
        method: 'GET',
        path: '/',
        headers: {},
        spill: {
          afterBytes: 64 * 1024,
          start: (soFar) => {
            for (const chunk of soFar.chunks) reader.stream.write(chunk);
            return reader.stream;
          },
        },
      }),
    ).rejects.toThrow();
    expect(reader.received.length).toBeGreaterThan(0);
  });

  it('when the reader goes away midway, then the exchange stops reading the service (its answer is cut) instead of waiting', async () => {
    let serviceSawClose!: () => void;
    const closed = new Promise<void>((resolve) => {
      serviceSawClose = resolve;
    });
    const { server, origin } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 64 * 1024 * 1024 });
      res.on('close', () => serviceSawClose());
      const piece = patterned(64 * 1024);
      // keeps writing while the socket takes it, as a large answer would
      const pump = () => {
        while (!res.destroyed && res.write(piece));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    servers.push(server);
    const reader = slowReader(5);
    const exchanged = exchange(agent, origin, {
      method: 'GET',
      path: '/',
      headers: {},
      spill: {
        afterBytes: 64 * 1024,
        start: (soFar) => {
          for (const chunk of soFar.chunks) reader.stream.write(chunk);
          setTimeout(() => reader.stream.destroy(), 50);
          return reader.stream;
        },
      },
    });
    await expect(exchanged).rejects.toThrow("the answer's reader went away");
    await closed;
  });
});
