import { randomUUID } from 'node:crypto';
import { addDays, type CalendarDate } from '@finance/shared/calendar';
import pg from 'pg';
import type { ApiClient } from '../test/support/api-client.ts';
import type { TestStack } from '../test/support/stack.ts';
import { available } from './routes.ts';
import { insertInvestments } from './seed-sql.ts';

export interface InvestmentSeedInput {
  api: ApiClient;
  userId: string;
  positions: number;
  days: number;
  /** Last snapshot day. */
  end: CalendarDate;
}

type Result = { positions: number; snapshots: number; via: string } | null;

const TYPES = [
  ['FIXED_INCOME', 'TREASURY'],
  ['FIXED_INCOME', 'CDB'],
  ['INVESTMENT_FUND', 'MULTIMARKET'],
  ['EQUITY', 'STOCK'],
] as const;
const BANKS = ['XP Investimentos', 'BTG Pactual', 'Nubank', 'Itaú'];

/** Positions growing about 0.04% a day, one snapshot a day up to `end`. */
function investmentsPayload(input: InvestmentSeedInput) {
  return Array.from({ length: input.positions }, (_, index) => {
    const n = index + 1;
    const base = 100_000 + ((n * 7919) % 5_000_000);
    return {
      investment_id: `bench-inv-${n}`,
      name: `Investimento ${n}`,
      bank_name: BANKS[n % 4],
      type: TYPES[n % 4][0],
      subtype: TYPES[n % 4][1],
      snapshots: Array.from({ length: input.days }, (_, day) => ({
        date: addDays(input.end, day - input.days + 1),
        balance_cents: Math.round(base * 1.0004 ** day),
      })),
    };
  });
}

async function snapshotCount(stack: TestStack, userId: string): Promise<number> {
  const rows = await stack.sql<{ count: string }>(
    `select count(*) from insights.investment_snapshots s join insights.investment_positions p on p.id = s.position_id
     where p.user_id = $1 and p.profile_id is null`,
    [userId],
  );
  return Number(rows[0].count);
}

/** Through the open-banking import (202 + job, snapshots stored by insights' worker); polls until stored. */
async function importInvestments(stack: TestStack, input: InvestmentSeedInput): Promise<Result> {
  const response = await input.api.post('/v1/open-banking/imports', {
    connection: { id: randomUUID(), institution: 'XP Investimentos' },
    accounts: [],
    credit_cards: [],
    transactions: [],
    investments: investmentsPayload(input),
  });
  if (response.status >= 300) throw new Error(`import: ${response.status} ${JSON.stringify(response.body)}`);
  const expected = input.positions * input.days;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const stored = await snapshotCount(stack, input.userId);
    if (stored >= expected)
      return { positions: input.positions, snapshots: stored, via: 'POST /v1/open-banking/imports' };
    if (Date.now() > deadline) throw new Error(`import stored ${stored} of ${expected} snapshots in 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Investments of the person: through the import when it exists, else SQL into insights' tables. */
export async function seedInvestments(
  stack: TestStack,
  input: InvestmentSeedInput,
): Promise<{ result: Result; note?: string }> {
  const tables = await stack.sql<{ exists: boolean }>(
    "select to_regclass('insights.investment_snapshots') is not null as exists",
  );
  if (!tables[0].exists) return { result: null, note: 'investments: tables not available; none seeded' };
  if (available('openBankingImport')) {
    const result = await importInvestments(stack, input);
    return { result, note: `investments: ${result?.snapshots} snapshots through POST /v1/open-banking/imports` };
  }
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const snapshots = await insertInvestments(db, {
      userId: input.userId,
      profileId: null,
      positions: input.positions,
      days: input.days,
      end: input.end,
    });
    return {
      result: { positions: input.positions, snapshots, via: 'SQL' },
      note: 'investments: open-banking import not available; positions, snapshots and daily yields written with SQL',
    };
  } finally {
    await db.end();
  }
}
