/**
 * The memory floor of the stack a service is built on: a process that loads the libraries every service loads
 * and does the least with each (an express app listening, MikroORM connected with one entity, an ioredis
 * connection, a BullMQ queue and worker, undici's Agent, a joi schema, pino, prom-client's default metrics, a
 * date formatted in a time zone), then idles. `bench/stack-floor.ts` starts it as `npm start` starts a service
 * and reads its memory at rest: what no code of ours can take away while each service is its own Node process.
 * Plain JavaScript, so Node's TypeScript stripper (≈17 MB) is not counted. Env: DATABASE_URL, REDIS_URL.
 */
import { createRequire } from 'node:module';
import { Migrator } from '@mikro-orm/migrations';
import { defineEntity, MikroORM, p } from '@mikro-orm/postgresql';
import { Queue, Worker } from 'bullmq';
import express from 'express';
import { Redis } from 'ioredis';
import joi from 'joi';
import pino from 'pino';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

// the services load undici's Agent alone, not its entry (shared/src/http/internal-client.ts)
const Agent = createRequire(import.meta.url)('undici/lib/dispatcher/agent.js');

const Probe = defineEntity({
  name: 'FloorProbe',
  tableName: 'floor_probe',
  properties: { id: p.uuid().primary(), name: p.string() },
});
const orm = await MikroORM.init({
  clientUrl: process.env.DATABASE_URL,
  entities: [Probe],
  extensions: [Migrator],
  ensureDatabase: false,
  pool: { min: 0, max: 10 },
});
await orm.em.fork().getConnection().execute('select 1');

const redis = () => new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const queueName = `stack-floor-${process.pid}`;
const queue = new Queue(queueName, { connection: redis() });
const worker = new Worker(queueName, async () => undefined, { connection: redis() });
await worker.waitUntilReady();

const registry = new Registry();
collectDefaultMetrics({ register: registry });
new Histogram({ name: 'floor_seconds', help: 'probe', registers: [registry] }).observe(0.001);
const agent = new Agent({ connections: 10 });
joi.object({ name: joi.string().required() }).validate({ name: 'x' });
new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

const app = express();
app.use(express.json());
app.get('/', (_req, res) => res.json({ ok: true }));
const server = app.listen(0, '127.0.0.1', () => pino().info({ port: server.address().port }, 'ready'));

process.on('SIGTERM', async () => {
  server.close();
  await Promise.all([worker.close(), queue.obliterate({ force: true }).then(() => queue.close()), agent.close()]);
  await orm.close();
  process.exit(0);
});
