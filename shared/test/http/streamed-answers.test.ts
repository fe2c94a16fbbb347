import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CallerContext, CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { defineRoute } from '@finance/shared/contracts/route';
import { AppError } from '@finance/shared/errors/app-error';
import { createApp } from '@finance/shared/http/create-app';
import { InternalClient } from '@finance/shared/http/internal-client';
import { JsonStream, mountRoute, requireContext } from '@finance/shared/http/service-routes';
import { createLogger } from '@finance/shared/logger';
import express from 'express';
import Joi from 'joi';

const SECRET = 'streamed-answers-secret-0123456789abcdef';
const PIECE = Buffer.from(`"${'x'.repeat(256 * 1024)}"`);

type Mode = 'whole' | 'refused' | 'cut';
const contract = defineRoute({
  service: 'ledger',
  internal: true,
  tag: 'test',
  operationId: 'streamedAnswer',
  method: 'post',
  path: '/internal/v1/streamed',
  summary: 'An answer written as it is made',
  body: Joi.object<{ mode: Mode }>({ mode: Joi.string().valid('whole', 'refused', 'cut').required() }),
  responses: { 200: { description: '`{pieces}`' } },
});

/**
 * `JsonStream`: an internal answer written piece by piece as it is made (the ledger's bill rows), read by the
 * caller's `InternalClient` over real HTTP. A failure before the first piece is the answered error; after it,
 * the connection is cut and the caller gets its 503, never a truncated success.
 */
describe('internal answers written as they are made (JsonStream)', () => {
  let server: Server;
  let client: InternalClient;
  const context: CallerContext = { userId: 'u1', profileId: null, business: false, keyId: null };

  beforeAll(async () => {
    const app = createApp({
      service: 'ledger',
      logger: createLogger('ledger', 'silent'),
      ready: async () => {},
      mount: (root) => {
        root.use(express.json()); // as every service parses its bodies (startService)
        const router = express.Router();
        router.use(requireContext(SECRET));
        mountRoute(
          router,
          contract,
          ({ body }) =>
            new JsonStream(async (write) => {
              if (body.mode === 'refused') throw new AppError(404, 'Fatura não encontrada');
              write(Buffer.from('{"pieces":['));
              for (let k = 0; k < 8; k++) {
                // the event loop turns between pieces, as between a bill's rows: each piece leaves on its own
                await new Promise((resolve) => setImmediate(resolve));
                if (body.mode === 'cut' && k === 4) throw new Error('connection to PostgreSQL lost');
                write(k ? Buffer.concat([Buffer.from(','), PIECE]) : PIECE);
              }
              write(Buffer.from(']}'));
            }),
        );
        root.use(router);
      },
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = new InternalClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, SECRET);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('when every piece is made, then the caller reads the whole answer, chunked, as JSON', async () => {
    const bytes = await client.sendForBytes(contract, { context, body: { mode: 'whole' } });
    const answer = JSON.parse(bytes.toString('utf8')) as { pieces: string[] };
    expect(answer.pieces).toHaveLength(8);
    expect(answer.pieces.every((piece) => piece.length === 256 * 1024)).toBe(true);
    const raw = await fetch(`${client.baseUrl}${contract.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CONTEXT_HEADER]: signContext(context, SECRET),
      },
      body: JSON.stringify({ mode: 'whole' }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(raw.headers.get('transfer-encoding')).toBe('chunked');
    expect((await raw.arrayBuffer()).byteLength).toBe(bytes.length);
  });

  it('when it fails before its first piece, then the caller gets that error, status and message', async () => {
    await expect(client.sendForBytes(contract, { context, body: { mode: 'refused' } })).rejects.toMatchObject({
      status: 404,
      message: 'Fatura não encontrada',
    });
  });

  it('when it fails after pieces have left, then the connection is cut and the caller answers 503, never the part it read', async () => {
    await expect(client.sendForBytes(contract, { context, body: { mode: 'cut' } })).rejects.toMatchObject({
      status: 503,
    });
    // the server goes on serving the next call
    const bytes = await client.sendForBytes(contract, { context, body: { mode: 'whole' } });
    expect(JSON.parse(bytes.toString('utf8')).pieces).toHaveLength(8);
  });
});
