import type { AddressInfo } from 'node:net';
import express from 'express';
import { type Dispatcher, Pool } from 'undici';

/**
 * Child process of the harness: one bare hop of the production topology, express + undici and nothing else (no
 * auth, validation, logs, metrics or tracing). It passes each request's bytes to `upstream` over a keep-alive pool
 * and answers with the upstream's status, content type and body, sent with its length. Prints its URL once
 * listening. Chained in front of the bare server, it measures what the topology's hops cost by themselves.
 */
const upstream = process.argv[2];
if (!upstream) throw new Error('usage: bare-relay.ts <upstream origin>');
const pool = new Pool(upstream);

const app = express();
app.use(express.raw({ type: () => true, limit: '10mb' }));
app.use(async (req, res) => {
  const answer = await pool.request({
    method: req.method as Dispatcher.HttpMethod,
    path: req.originalUrl,
    headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
    body: Buffer.isBuffer(req.body) && req.body.length ? req.body : undefined,
  });
  const body = Buffer.from(await answer.body.arrayBuffer());
  const type = answer.headers['content-type'];
  if (typeof type === 'string') res.setHeader('content-type', type);
  res.status(answer.statusCode).end(body);
});

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool.close();
});
