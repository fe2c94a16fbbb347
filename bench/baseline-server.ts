import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sessionOptions } from '@finance/shared/db/orm';
import express from 'express';
import pg from 'pg';
import type { Statement } from './raw-sql.ts';

export const BASELINE_SCHEMA = 'bench_baseline';

export interface BaselineServer {
  url: string;
  /** Serves `statements` (run one after the other, rows answered as JSON) at the returned URL. */
  serve(name: string, statements: Statement[]): string;
  /**
   * As `serve`, but the first statement answers one JSON text per row (`record`), written into the answer as it
   * is, as the ledger writes the records PostgreSQL makes: no parse, no second serialization.
   */
  serveRecords(name: string, statements: Statement[]): string;
  /** As `serve`, but answers `body` (an answer of ours, as many bytes) once the statements ran. */
  serveBody(name: string, statements: Statement[], body: string): string;
  stop(): Promise<void>;
}

/**
 * The floor of each scenario as the issue measured it: bare express + pg doing the same database work, no
 * auth, no gateway hop, no context checks, no events. `POST /v1/transactions` is one INSERT into a copy of
 * ledger.transactions (same columns, constraints and indexes) in a scratch schema, answering the row;
 * `GET /reads/<name>` runs a read's statements (the services' own, from `raw-sql.ts`) and answers their rows
 * (or, for `serveRecords`, the JSON texts PostgreSQL wrote, as they are).
 */
export async function startBaselineServer(databaseUrl: string, userId: string): Promise<BaselineServer> {
  // the services' statements name their tables unqualified, resolved on the ledger's search path
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: sessionOptions('ledger') });
  await pool.query(`create schema if not exists ${BASELINE_SCHEMA}`);
  await pool.query(
    `create table if not exists ${BASELINE_SCHEMA}.transactions (like ledger.transactions including all)`,
  );
  const reads = new Map<string, { statements: Statement[]; records: boolean; body?: string }>();
  const app = express();
  app.use(express.json());
  app.post('/v1/transactions', async (req, res) => {
    const body = req.body ?? {};
    if (!Number.isInteger(body.amount) || typeof body.title !== 'string' || typeof body.is_expense !== 'boolean') {
      res.status(400).json({ message: 'corpo inválido' });
      return;
    }
    const result = await pool.query(
      `insert into ${BASELINE_SCHEMA}.transactions
         (id, user_id, amount, date, title, is_expense, type, account_id, paid, paid_at, created_at, updated_at)
       values ($1, $2, $3, $4::date, $5, $6, 'FIXED', $7, $8, case when $8 then now() end, now(), now()) returning *`,
      [
        randomUUID(),
        userId,
        body.amount,
        body.date,
        body.title,
        body.is_expense,
        body.account_id ?? null,
        body.paid === true,
      ],
    );
    res.status(201).json(result.rows[0]);
  });
  app.get('/reads/:name', async (req, res) => {
    const read = reads.get(req.params.name);
    if (!read) {
      res.status(404).json({ message: 'leitura desconhecida' });
      return;
    }
    if (read.body !== undefined) {
      for (const statement of read.statements) await pool.query(statement);
      res.type('json').send(read.body);
      return;
    }
    if (read.records) {
      const [first, ...others] = read.statements;
      const records = (await pool.query<{ record: string }>(first)).rows.map((row) => row.record);
      let rest = '';
      for (const statement of others) rest += `,${JSON.stringify((await pool.query(statement)).rows)}`;
      res.type('json').send(`{"data":[[${records.join(',')}]${rest}]}`);
      return;
    }
    const answers: unknown[][] = [];
    for (const statement of read.statements) answers.push((await pool.query(statement)).rows);
    res.json(answers.length === 1 ? { data: answers[0] } : { data: answers });
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    serve(name, statements) {
      reads.set(name, { statements, records: false });
      return `${url}/reads/${name}`;
    },
    serveRecords(name, statements) {
      reads.set(name, { statements, records: true });
      return `${url}/reads/${name}`;
    },
    serveBody(name, statements, body) {
      reads.set(name, { statements, records: false, body });
      return `${url}/reads/${name}`;
    },
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}
