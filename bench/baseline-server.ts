import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';

export const BASELINE_SCHEMA = 'bench_baseline';

export interface BaselineServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The floor for POST /v1/transactions: bare express + pg, no auth, no gateway hop, no context checks,
 * no events; one INSERT into a copy of ledger.transactions (same columns, constraints and indexes) in a
 * scratch schema, answering the row as JSON.
 */
export async function startBaselineServer(databaseUrl: string, userId: string): Promise<BaselineServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(`create schema if not exists ${BASELINE_SCHEMA}`);
  await pool.query(
    `create table if not exists ${BASELINE_SCHEMA}.transactions (like ledger.transactions including all)`,
  );
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
         (id, user_id, amount, date, title, is_expense, type, account_id, created_at, updated_at)
       values ($1, $2, $3, $4::date, $5, $6, 'FIXED', $7, now(), now()) returning *`,
      [randomUUID(), userId, body.amount, body.date, body.title, body.is_expense, body.account_id ?? null],
    );
    res.status(201).json(result.rows[0]);
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}
