import { readFileSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { addDays, addMonthsClamped, type CalendarDate, endOfMonth, startOfMonth } from '@finance/shared/calendar';
import pg from 'pg';
import { ApiClient } from '../test/support/api-client.ts';
import { cloneContext } from '../test/support/clone-contexts.ts';
import { created, createReadRecords, type ReadDates, type ReadRoute, readRoutes } from '../test/support/read-routes.ts';
import type { Tenant } from '../test/support/stack.ts';
import { drive } from './load.ts';
import type { BenchData } from './seed.ts';
import { insertContextTransactions, type Merchant } from './seed-sql.ts';

export interface TenantsOptions {
  /** Other contexts added, each a copy of one seeded through the API. */
  contexts: number;
  /** Transactions of each of them (a year of entries). */
  transactionsEach: number;
  connections: number;
  seconds: number;
  /**
   * Counted windows of each read on each side, alternating (alone first, then the other side first, and so on),
   * after one uncounted window on each side that brings the read's pages into memory.
   */
  rounds: number;
}

/** A gateway (`npm start`) and the database behind it. */
export interface TenantsSide {
  url: string;
  databaseUrl: string;
}

/** What each context reads: its key and its routes, whose ids both databases hold (one is a file copy of the other). */
export interface TenantsPlan {
  name: 'personal' | 'company';
  api: ApiClient;
  routes: ReadRoute[];
}

/** A read's figures on one side. */
type Figure = { p50: number; rps: number; non2xx: number };

export interface TenantRead {
  context: 'personal' | 'company';
  route: string;
  path: string;
  alone: Figure;
  crowded: Figure;
  ratio: number;
  /** Each counted window's p50, in the order driven. */
  windows: { alone: number[]; crowded: number[] };
}

export interface TenantsResult {
  contexts: number;
  otherRows: Record<string, number>;
  seedSeconds: number;
  reads: TenantRead[];
  /** Context tables of more than 10,000 rows that some statement scanned whole while the reads among the others ran. */
  wholeScans: Array<{ table: string; rows: number; scans: number }>;
}

/** PostgreSQL flushes a backend's table counters at most every 10 s while it is idle. */
const STATS_FLUSH_MS = 11_000;

/** Context tables (with `context_id`) over 10,000 rows scanned whole since the counters were reset. */
async function wholeScansOfLargeTables(databaseUrl: string) {
  await setTimeout(STATS_FLUSH_MS);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ table: string; rows: string; scans: string }>(
      // the size from the planner's statistics (vacuumed after the copies): pg_stat_reset() zeroes n_live_tup too
      `select s.schemaname || '.' || s.relname as table, k.reltuples::bigint as rows, s.seq_scan as scans
        from pg_stat_user_tables s join pg_class k on k.oid = s.relid
        where s.schemaname in ('ledger', 'billing', 'insights') and k.reltuples > 10000 and s.seq_scan > 0
          and exists (select 1 from information_schema.columns c
                       where c.table_schema = s.schemaname and c.table_name = s.relname and c.column_name = 'context_id')
        order by 1`,
    );
    return rows.map((row) => ({ table: row.table, rows: Number(row.rows), scans: Number(row.scans) }));
  } finally {
    await db.end();
  }
}

const TEMPLATE_MERCHANTS: Merchant[] = [
  { name: 'Padaria Central', cnpj: '11.222.333/0001-81', cnae: '1091102' },
  { name: 'Mercado Bom Preço', cnpj: '22.333.444/0001-90', cnae: '4711302' },
  { name: 'Farmácia Saúde', cnpj: '33.444.555/0001-00', cnae: '4771701' },
  { name: 'Posto Avenida', cnpj: '44.555.666/0001-10', cnae: '4731800' },
];

/**
 * A small user with a year of entries, seeded as the bench seeds its own contexts (accounts, a card and its bills
 * through the API, `transactions` rows by set-based SQL), plus one of each record the read routes name and a
 * preference saved: the template every other context is copied from.
 */
async function seedTemplate(
  databaseUrl: string,
  owner: { userId: string; api: ApiClient },
  transactions: number,
  today: CalendarDate,
): Promise<string> {
  const accountIds = [
    (await created(owner.api, '/v1/accounts', { name: 'Conta', logo: '260', type: 'PERSONAL_BANK' })).id,
    (await created(owner.api, '/v1/accounts', { name: 'Poupança', logo: '341', type: 'PERSONAL_BANK' })).id,
  ];
  const card = await created(owner.api, '/v1/credit-cards', {
    name: 'Cartão',
    account_id: accountIds[0],
    closing_date: 5,
    expiring_date: 12,
    limit: 500_000,
  });
  const start = addDays(today, -364);
  for (let month = addMonthsClamped(startOfMonth(start), -1); month <= addMonthsClamped(startOfMonth(today), 2); ) {
    await owner.api.get(`/v2/bills/show-by-card/${card.id}?date=${month}`);
    month = addMonthsClamped(month, 1);
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await insertContextTransactions(db, {
      userId: owner.userId,
      profileId: null,
      count: transactions,
      accountIds,
      cardIds: [card.id],
      merchants: TEMPLATE_MERCHANTS,
      start,
      days: 365,
      salt: 'template',
    });
  } finally {
    await db.end();
  }
  await createReadRecords(owner.api, { account: accountIds[0], card: card.id }, false, today);
  await owner.api.put('/v2/personal-config', { include_transfers: true });
  return owner.userId;
}

/**
 * The database at rest before a phase is measured: every table vacuumed and analyzed now (autovacuum would otherwise
 * do it while the reads run), its dirty pages written by a checkpoint now (not spread over the reads) and the
 * kernel's writeback done.
 */
async function quiet(db: pg.ClientBase, log: (line: string) => void) {
  await db.query('vacuum (analyze)');
  await db.query('checkpoint');
  await writesSettled(log);
}

/** The twin database vacuumed and analyzed as the bench's is by `quiet`, so both sides are read at rest. */
async function vacuumed(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('vacuum (analyze)');
  } finally {
    await db.end();
  }
}

/**
 * A twin of the bench's database, `<name>_alone`: a file copy (its tables and indexes page for page, bloat
 * included), made while no session holds the bench's database (PostgreSQL requires it of a template).
 */
export async function twinDatabase(databaseUrl: string): Promise<string> {
  const source = new URL(databaseUrl);
  const name = source.pathname.slice(1);
  const twin = new URL(databaseUrl);
  twin.pathname = `/${name}_alone`;
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const db = new pg.Client({ connectionString: admin.toString() });
  await db.connect();
  try {
    // the bench's own pools left idle by the passes before
    await db.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    await db.query(`drop database if exists "${name}_alone"`);
    await db.query(`create database "${name}_alone" template "${name}" strategy file_copy`);
  } finally {
    await db.end();
  }
  return twin.toString();
}

/** Waits (at most two minutes) until the kernel holds under 32 MB of file pages not yet on disk. */
async function writesSettled(log: (line: string) => void) {
  const pending = () => {
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0);
    return (kb('Dirty') + kb('Writeback')) / 1024;
  };
  const started = performance.now();
  while (pending() >= 32 && performance.now() - started < 120_000) await setTimeout(1000);
  log(
    `Many tenants: writes settled in ${((performance.now() - started) / 1000).toFixed(0)} s (${pending().toFixed(0)} MB pending).`,
  );
}

/** One read driven for `seconds` on one side: p50, rate and failures. */
async function readWindow(url: string, api: ApiClient, path: string, options: TenantsOptions): Promise<Figure> {
  const result = await drive({
    url: `${url}${path}`,
    method: 'GET',
    headers: { authorization: api.authorization() as string },
    connections: options.connections,
    warmup: 1,
    seconds: options.seconds,
  });
  return { p50: result.p50, rps: result.rps, non2xx: result.non2xx + result.errors };
}

/**
 * The windows' median p50 (a window without an answer has none) and mean rate, their failures summed: one window
 * far off the others (a checkpoint, a scheduled job of either stack) moves neither side's figure.
 */
export function combined(windows: Figure[]): Figure {
  const answered = windows
    .filter((figure) => figure.p50 > 0)
    .map((figure) => figure.p50)
    .sort((a, b) => a - b);
  const middle = answered.length / 2;
  const median =
    answered.length === 0
      ? 0
      : answered.length % 2
        ? answered[Math.floor(middle)]
        : (answered[middle - 1] + answered[middle]) / 2;
  const rps = windows.reduce((sum, figure) => sum + figure.rps, 0) / Math.max(windows.length, 1);
  return {
    p50: Math.round(median * 10) / 10,
    rps: Math.round(rps * 10) / 10,
    non2xx: windows.reduce((sum, figure) => sum + figure.non2xx, 0),
  };
}

/**
 * The contexts made and their reads planned on the bench's database, before its twin is made from it: the
 * records each read route names (a saved preference, a goal, a rule, ...), made once, so both databases hold them.
 */
export async function tenantsPlans(url: string, data: BenchData): Promise<TenantsPlan[]> {
  const month = addMonthsClamped(startOfMonth(data.today), -2);
  const dates: ReadDates = { start: data.start, today: data.today, monthStart: month, monthEnd: endOfMonth(month) };
  const contexts = [
    { name: 'personal' as const, seeded: data.personal, company: false },
    { name: 'company' as const, seeded: data.company, company: true },
  ];
  const plans: TenantsPlan[] = [];
  for (const { name, seeded, company } of contexts) {
    const api = new ApiClient(url, seeded.api.key);
    const ids = await createReadRecords(
      api,
      { account: seeded.accountIds[0], card: seeded.cardIds[0] },
      company,
      data.today,
    );
    // the company is measured on what only a company reads: its person reads everything else
    const routes = readRoutes(ids, dates, company).filter(
      (read) => !company || read.route.includes('/business/') || read.route.includes('/reports/'),
    );
    plans.push({ name, api, routes });
  }
  return plans;
}

/**
 * Many tenants: every read route of the bench's person (and the business routes of its company) on two stacks at
 * once: `alone` on a twin of the bench's database (a file copy made before the others are added), `crowded` on the
 * bench's database after `contexts` other contexts of `transactionsEach` entries each are added (copies of
 * `template`, a user seeded through the API). Each read alternates windows of the two sides, so both are measured
 * in the same minutes on the same machine; each read's p50 beside its ratio.
 */
export async function manyTenants(
  sides: { alone: TenantsSide; crowded: TenantsSide },
  plans: TenantsPlan[],
  data: BenchData,
  template: Tenant,
  options: TenantsOptions,
  log: (line: string) => void,
): Promise<TenantsResult> {
  const { alone, crowded } = sides;
  const db = new pg.Client({ connectionString: crowded.databaseUrl });
  await db.connect();
  let otherRows: Record<string, number>;
  const seedStarted = performance.now();
  try {
    const templateKey = await seedTemplate(
      crowded.databaseUrl,
      { userId: template.userId, api: new ApiClient(crowded.url, template.key) },
      options.transactionsEach,
      data.today,
    );
    otherRows = (await cloneContext(db, templateKey, options.contexts - 1)).rows;
    await vacuumed(alone.databaseUrl);
    await quiet(db, log);
    // what the reads among the others scan from here on (the statistics of this database only)
    await db.query('select pg_stat_reset()');
  } finally {
    await db.end();
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(
    `Many tenants: ${options.contexts.toLocaleString('en-US')} other contexts added in ${seedSeconds.toFixed(0)} s ` +
      `(${(otherRows['ledger.transactions'] + options.transactionsEach).toLocaleString('en-US')} transactions); ` +
      `${plans.reduce((n, plan) => n + plan.routes.length, 0)} reads, alone and among them in alternating windows.`,
  );
  const reads: TenantRead[] = [];
  for (const plan of plans) {
    for (const { route, path } of plan.routes) {
      // uncounted: the read's pages of each database into memory (the copy evicted them)
      for (const side of ['alone', 'crowded'] as const) {
        await readWindow(sides[side].url, plan.api, path, { ...options, seconds: 1 });
      }
      const windows: Record<'alone' | 'crowded', Figure[]> = { alone: [], crowded: [] };
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? (['alone', 'crowded'] as const) : (['crowded', 'alone'] as const);
        for (const side of order) windows[side].push(await readWindow(sides[side].url, plan.api, path, options));
      }
      const before = combined(windows.alone);
      const after = combined(windows.crowded);
      reads.push({
        context: plan.name,
        route,
        path,
        alone: before,
        crowded: after,
        ratio: after.p50 / Math.max(before.p50, 0.1),
        windows: { alone: windows.alone.map((w) => w.p50), crowded: windows.crowded.map((w) => w.p50) },
      });
      log(
        `  ${plan.name} ${route}: p50 alone ${windows.alone.map((w) => w.p50).join(', ')} ms; ` +
          `among the others ${windows.crowded.map((w) => w.p50).join(', ')} ms`,
      );
    }
  }
  const wholeScans = await wholeScansOfLargeTables(crowded.databaseUrl);
  log(
    `Many tenants: context tables over 10,000 rows scanned whole while measured: ${
      wholeScans.map((scan) => `${scan.table} (${scan.scans} scans of ${scan.rows} rows)`).join(', ') || 'none'
    }.`,
  );
  return { contexts: options.contexts, otherRows, seedSeconds, reads, wholeScans };
}

/** The reads as a Markdown table: p50 alone, p50 among the others, the ratio. */
export function tenantsTable(result: TenantsResult): string {
  // a window no answer arrived in has no p50: said so, not a ratio of zero
  const p50 = (figure: { p50: number }) => (figure.p50 > 0 ? String(figure.p50) : 'no answer in the window');
  const rows = result.reads.map(
    (read) =>
      `| ${read.context} | \`${read.route}\` | ${p50(read.alone)} | ${p50(read.crowded)} | ` +
      `${read.alone.p50 > 0 && read.crowded.p50 > 0 ? `${read.ratio.toFixed(2)}×` : '—'} |` +
      (read.alone.non2xx || read.crowded.non2xx ? ` ${read.alone.non2xx}/${read.crowded.non2xx} failed` : ''),
  );
  return [
    `| context | read | p50 alone (ms) | p50 with ${result.contexts.toLocaleString('en-US')} other contexts (ms) | ratio |`,
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
