import { fileURLToPath } from 'node:url';
import { addDays, addMonthsClamped, endOfMonth, startOfMonth } from '@finance/shared/calendar';
import { dropDatabase } from '@finance/shared/testing/servers';
import pg from 'pg';
import { ApiClient, type KeyCredentials } from '../test/support/api-client.ts';
import { deleteRedisKeys } from '../test/support/redis-keys.ts';
import { type Tenant, TestStack } from '../test/support/stack.ts';
import { bankSyncScenario } from './bank-sync.ts';
import { type BareHops, startBareHops } from './bare-hops.ts';
import { type BaselineServer, startBaselineServer } from './baseline-server.ts';
import { addUsage, type CpuProbe, type CpuSample, perRequest, probeOf } from './cpu.ts';
import type { DriveOptions, DriveResult } from './drive.ts';
import { drive } from './load.ts';
import {
  manyTenants,
  type TenantsOptions,
  type TenantsPlan,
  tenantsPlans,
  tenantsTable,
  twinDatabase,
} from './many-tenants.ts';
import {
  billRecordsStatements,
  billStatements,
  cashFlowStatements,
  listStatement,
  openBillIds,
  queryOnce,
  recategorizeStatement,
  type Statement,
  sqlLoad,
  subcategoryStatement,
  summaryStatementOf,
  timeRolledBack,
} from './raw-sql.ts';
import {
  combinedWindows,
  cpuLine,
  type Figures,
  machine,
  ratioOf,
  rawRatioOf,
  type ScenarioResult,
  sameBytesNote,
  sameBytesTable,
  table,
  topologyRatioOf,
  writeResults,
} from './report.ts';
import { available, type RouteName } from './routes.ts';
import { type BenchData, DIVERSOS, FULL_SCALE, type SeedOptions, seedBenchData } from './seed.ts';
import { seedForecast } from './seed-forecast.ts';
import { seedSplits, setSplit } from './seed-splits.ts';
import { stackFloor } from './stack-floor.ts';
import { statementImportScenario } from './statement-import.ts';
import { peakRss, startTopology, type Topology } from './topology.ts';

/**
 * `npm run bench`: the whole system in this process (as the component tests start it: fresh database
 * `finance_test_*`, dropped at the end), seeded with a year of data, driven through the gateway by
 * autocannon in a child process; each scenario beside a baseline measured in the same run.
 */
/** A whole number ≥ 1 from the environment, or the run stops at once saying which setting is wrong. */
function countSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1 (got ${process.env[name]})`);
  return value;
}

const SECONDS = countSetting('BENCH_SECONDS', 10);
const WARMUP_SECONDS = 2;
/** `BENCH_ROUNDS`: how many alternating windows of ours and its baseline share `SECONDS` (the issue's "interleaved twice"). */
const ROUNDS = countSetting('BENCH_ROUNDS', 2);
const CONNECTIONS = countSetting('BENCH_CONNECTIONS', 4);
const SCALE: SeedOptions = process.env.BENCH_TRANSACTIONS
  ? {
      ...FULL_SCALE,
      transactions: Number(process.env.BENCH_TRANSACTIONS),
      ruleMatches: Math.floor(Number(process.env.BENCH_TRANSACTIONS) / 2),
    }
  : FULL_SCALE;
const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));
const MODE =
  'in-process stack (gateway, ledger, billing, insights and their workers in one Node process, as the component tests start it); autocannon in a child process; local Postgres and Redis';
const TOPOLOGY_MODE =
  "`npm start` topology: scripts/start.ts wrapper + five processes (gateway, ledger, billing, insights with their workers, the ledger's statement-file worker), NODE_ENV=production, same database and seed";
/** `BENCH_TOPOLOGY=off` skips the second pass on the `npm start` topology. */
const TOPOLOGY = process.env.BENCH_TOPOLOGY !== 'off';
/**
 * `BENCH_SCENARIOS=bill,report,rule` runs only those (list, bill, report, summary, yield, cashflow, splits, create,
 * rule, statement, sync, tenants); all by default.
 */
const ONLY = new Set((process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean));
const wanted = (name: string) => ONLY.size === 0 || ONLY.has(name);
/**
 * The many-tenants scenario: how many other contexts, of how many transactions each, and seconds per read (a report
 * takes 1–2 s at 10 connections: a shorter window may end before any answer).
 */
const TENANTS: TenantsOptions = {
  contexts: countSetting('BENCH_TENANTS', 2000),
  transactionsEach: countSetting('BENCH_TENANT_TRANSACTIONS', 5000),
  connections: CONNECTIONS,
  seconds: countSetting('BENCH_TENANT_SECONDS', 4),
  rounds: countSetting('BENCH_TENANT_ROUNDS', 3),
};

/** What the bill's second floor is: the contract's bytes, written by PostgreSQL, answered by bare express + pg. */
const SAME_BYTES_NAME = "bare express + pg answering the spec's records, written by PostgreSQL";

/** What `stackFloor` measures, as the run prints it. */
const FLOOR_NAME =
  'Memory floor of the stack (one process holding only express, MikroORM + pg, ioredis, BullMQ, undici, joi, pino and prom-client, started as a service is)';

/** The bare topology's name in the table: the bare server behind the hops our request crosses. */
const hopsName = (hops: 1 | 2) =>
  hops === 1 ? 'bare server behind one bare relay' : 'bare server behind two chained bare relays';

/** Where a pass sends its load: the gateway's URL and the database its baselines query. */
interface Target {
  url: string;
  databaseUrl: string;
  /** The processes each side of a paired scenario runs on, for its CPU per request. */
  cpu: { ours: CpuProbe; baseline: CpuProbe };
  /** Measures the bare server behind bare relays too (the production topology's pass). */
  bareHops: boolean;
  /** RSS in MB of each process of `npm start` (its pass only), for a scenario's own peaks. */
  rss?: () => Record<string, number>;
  /** Banco Sandbox beside this pass's services and a fresh tenant's key for its sync (`sync`). */
  bank?: { sandboxUrl: string; key: KeyCredentials; sandboxRss?: () => number | null };
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/** One HTTP load: what autocannon sends, with a seeded key. */
interface Load {
  url: string;
  api: ApiClient;
  method?: 'GET' | 'POST';
  body?: unknown;
}

const driveOptions = ({ url, api, method = 'GET', body }: Load): Omit<DriveOptions, 'warmup' | 'seconds'> => ({
  url,
  method,
  headers: {
    authorization: api.authorization() as string,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
  connections: CONNECTIONS,
});

/** A load with no baseline: warm-up, then `SECONDS` counted. */
async function httpFigures(load: Load): Promise<Figures> {
  return combinedWindows([await drive({ ...driveOptions(load), warmup: WARMUP_SECONDS, seconds: SECONDS })]);
}

/** The sides a paired scenario can measure: ours and its floors. */
type SideName = 'ours' | 'baseline' | 'bareTopology' | 'sameBytes' | 'sameBytesTopology';

/** One side of an alternated measurement: the load it drives, the processes it runs on, what precedes its windows. */
interface Side {
  load: Load;
  probe: CpuProbe;
  /** Puts the data in this side's state before each of its windows (the splits' on and off). */
  prepare?: () => Promise<void>;
}

/**
 * Ours and its baselines in alternation: `ROUNDS` windows of each (`SECONDS` in all per side), ours first in
 * every round, so a slow spell of the machine weighs on every side of a ratio. Each window is driven
 * `WARMUP_SECONDS` before it counts: its connections are all busy when it starts, and what the previous window
 * left running on the servers is done. `settle` runs before each baseline window (the creates' events drain
 * first: insights must not take the baseline's CPU). Each side's processes are read when its counted window
 * starts and ends: the CPU a request costs each of them, a figure the machine's slow spells move far less
 * than a rate.
 */
async function alternated(
  sides: Side[],
  settle: () => Promise<void> = async () => {},
): Promise<{ figures: Figures; cpu: CpuSample }[]> {
  const windows: DriveResult[][] = sides.map(() => []);
  const used: CpuSample[] = sides.map(() => ({}));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, side] of sides.entries()) {
      if (i > 0) await settle();
      await side.prepare?.();
      let before: CpuSample = {};
      const options = { ...driveOptions(side.load), warmup: WARMUP_SECONDS, seconds: SECONDS / ROUNDS };
      windows[i].push(
        await drive(options, () => {
          before = side.probe();
        }),
      );
      addUsage(used[i], before, side.probe());
    }
  }
  return windows.map((measured, i) => {
    const figures = combinedWindows(measured);
    return { figures, cpu: perRequest(used[i], figures.requests ?? 0) };
  });
}

/**
 * Ours beside the bare server and, on the production topology, beside the bare server behind as many bare
 * relays as our request crosses hops (`hops`): ours, the issue's baseline and the topology's own floor. With
 * `sameBytes` (a bare server's read answering as many bytes as ours), that one too, bare and behind the relays.
 */
async function pairedFigures(
  target: Target,
  relays: BareHops | null,
  ours: Load,
  baseline: Load,
  hops: 1 | 2,
  { settle, sameBytes }: { settle?: () => Promise<void>; sameBytes?: Load & { name?: string } } = {},
): Promise<
  Pick<ScenarioResult, 'rps' | 'p50' | 'p99' | 'requests' | 'non2xx' | 'errors' | 'cpu'> & {
    baseline: Figures;
    bareTopology?: Figures & { name: string };
    sameBytes?: Figures & { name: string };
    sameBytesTopology?: Figures & { name: string };
  }
> {
  const behindRelays = (bare: BareHops, load: Load): Side => ({
    load: { ...load, url: bare.through(hops, load.url) },
    probe: probeOf(() => ({ 'bare server': process.pid, ...bare.pids(hops) })),
  });
  const sides: [SideName, Side][] = [
    ['ours', { load: ours, probe: target.cpu.ours }],
    ['baseline', { load: baseline, probe: target.cpu.baseline }],
  ];
  if (relays) sides.push(['bareTopology', behindRelays(relays, baseline)]);
  if (sameBytes) sides.push(['sameBytes', { load: sameBytes, probe: target.cpu.baseline }]);
  if (sameBytes && relays) sides.push(['sameBytesTopology', behindRelays(relays, sameBytes)]);
  const measured = await alternated(
    sides.map(([, side]) => side),
    settle,
  );
  const of = new Map(sides.map(([name], i) => [name, measured[i]]));
  const [mine, bare] = measured;
  const bareTopology = of.get('bareTopology');
  const bytes = of.get('sameBytes');
  const bytesTopology = of.get('sameBytesTopology');
  return {
    ...mine.figures,
    baseline: bare.figures,
    bareTopology: bareTopology && { name: hopsName(hops), ...bareTopology.figures },
    sameBytes: bytes && { name: sameBytes?.name ?? SAME_BYTES_NAME, ...bytes.figures },
    sameBytesTopology: bytesTopology && { name: hopsName(hops), ...bytesTopology.figures },
    cpu: {
      ours: mine.cpu,
      baseline: bare.cpu,
      bareTopology: bareTopology?.cpu,
      sameBytes: bytes?.cpu,
      sameBytesTopology: bytesTopology?.cpu,
    },
  };
}

function finish(result: ScenarioResult): ScenarioResult {
  const done = { ...result, ratio: ratioOf(result) };
  if (done.skipped) log(`- ${done.scenario}: not available (${done.skipped})`);
  else {
    const figure =
      done.rps !== undefined
        ? `${done.rps.toFixed(0)} req/s, p50 ${done.p50} ms, p99 ${done.p99} ms`
        : `${done.ms?.toFixed(0)} ms`;
    const failures = done.non2xx || done.errors ? ` (${done.non2xx} non-2xx, ${done.errors} errors)` : '';
    const raw = rawRatioOf(done);
    const hops = topologyRatioOf(done);
    const ratio =
      (done.ratio === undefined ? '' : `, ${done.ratio.toFixed(1)}× the baseline`) +
      (raw === undefined ? '' : ` (${raw.toFixed(1)}× its raw SQL)`) +
      (hops === undefined ? '' : `, ${hops.toFixed(1)}× the bare topology`) +
      sameBytesNote(done);
    log(`- ${done.scenario}: ${figure}${failures}${ratio}`);
    // nothing to read where /proc is missing (not Linux)
    if (done.cpu?.ours.total) log(`  ${cpuLine(done.cpu, done.cpuPer)}`);
  }
  return done;
}

const skipIfMissing = (scenario: string, request: string, routes: RouteName[]): ScenarioResult | null => {
  const missing = routes.filter((route) => !available(route));
  return missing.length ? { scenario, request, skipped: `route ${missing.join(', ')} does not exist yet` } : null;
};

async function scenarios(target: Target, data: BenchData): Promise<ScenarioResult[]> {
  const bare = await startBaselineServer(target.databaseUrl, data.personal.userId);
  const relays = target.bareHops ? await startBareHops(bare.url) : null;
  try {
    return await measure(target, data, bare, relays);
  } finally {
    await relays?.stop();
    await bare.stop();
  }
}

/** Each wanted scenario through the gateway at `target`, beside its baselines (`bare`: express + pg). */
async function measure(target: Target, data: BenchData, bare: BaselineServer, relays: BareHops | null) {
  const results: ScenarioResult[] = [];
  const person = data.personal;
  const month = addMonthsClamped(startOfMonth(data.today), -6);

  /**
   * A read through the gateway beside its floors, the ledger's own statements: served by bare express + pg
   * (the issue's baseline, `baseline`) and run raw by as many pg clients, no HTTP (`raw`).
   */
  const read = async (
    key: string,
    scenario: string,
    path: string,
    hops: 1 | 2,
    rawName: string,
    statements: Statement[],
    sameBytes?: Statement[] | { body: string },
  ): Promise<ScenarioResult> => {
    const bytesUrl =
      sameBytes &&
      (Array.isArray(sameBytes)
        ? bare.serveRecords(`${key}-records`, sameBytes)
        : bare.serveBody(`${key}-body`, statements, sameBytes.body));
    const paired = await pairedFigures(
      target,
      relays,
      { url: `${target.url}${path}`, api: person.api },
      { url: bare.serve(key, statements), api: person.api },
      hops,
      {
        sameBytes: bytesUrl
          ? {
              url: bytesUrl,
              api: person.api,
              ...(Array.isArray(sameBytes) ? {} : { name: 'bare express + pg, same statements, answering our bytes' }),
            }
          : undefined,
      },
    );
    return {
      scenario,
      request: `GET ${path}`,
      ...paired,
      baseline: { name: 'bare express + pg, same statements', ...paired.baseline },
      raw: { name: rawName, ...(await sqlLoad(target.databaseUrl, statements, CONNECTIONS, SECONDS)) },
    };
  };
  const readIf = async (
    key: string,
    scenario: string,
    path: string,
    route: RouteName,
    hops: 1 | 2,
    rawName: string,
    statements: () => Promise<Statement[]>,
  ) => {
    if (!wanted(key)) return;
    results.push(
      finish(
        skipIfMissing(scenario, `GET ${path}`, [route]) ??
          (await read(key, scenario, path, hops, rawName, await statements())),
      ),
    );
  };

  const list = `/v1/transactions?limit=50&start_date=${month}&end_date=${endOfMonth(month)}`;
  await readIf('list', 'List transactions (50, one month)', list, 'listTransactions', 1, 'raw SQL', async () => [
    listStatement(person.userId, month, endOfMonth(month), 50),
  ]);

  const billMonth = addMonthsClamped(startOfMonth(data.today), -2);
  const bill = `/v2/bills/show-by-card/${person.cardIds[0]}?date=${billMonth}`;
  const missingBill = skipIfMissing('Show bill', `GET ${bill}`, ['showBill']);
  if (!wanted('bill')) {
    // not asked for
  } else if (missingBill || !person.cardIds.length) {
    results.push(
      finish(missingBill ?? { scenario: 'Show bill', request: `GET ${bill}`, skipped: 'no cards were seeded' }),
    );
  } else {
    // the bill's size drives its cost: say it beside the figures
    const sample = await person.api.get(bill);
    const count = (sample.body.transactions?.length ?? 0).toLocaleString('en-US');
    const [card, billId] = [person.cardIds[0], sample.body.bill.id];
    const totalsBillIds = await unrolledBills(target.databaseUrl, card, billId);
    results.push(
      finish(
        await read(
          'bill',
          `Show bill (${count} transactions)`,
          bill,
          2,
          'raw SQL of its rows and totals',
          billStatements(person.userId, card, billId, totalsBillIds),
          billRecordsStatements(person.userId, card, billId, totalsBillIds),
        ),
      ),
    );
  }

  const report = `/v1/reports/subcategory-details?start_date=${data.start}&end_date=${data.today}`;
  await readIf(
    'report',
    'Subcategory report (one year)',
    report,
    'subcategoryReport',
    2,
    'raw SQL aggregate',
    async () => [subcategoryStatement(person.userId, data.start, data.today)],
  );

  const summary = `/v1/reports/summary?start_date=${month}&end_date=${endOfMonth(month)}`;
  await readIf(
    'summary',
    'Summary report (one month)',
    summary,
    'summaryReport',
    2,
    'raw SQL of its totals',
    async () => [
      summaryStatementOf(
        person.userId,
        month,
        endOfMonth(month),
        await openBillIds(target.databaseUrl, person.userId, data.today),
      ),
    ],
  );

  const yieldPath = `/v1/investments/yield?date=${data.today}&limit=20`;
  if (wanted('yield'))
    results.push(
      finish(
        skipIfMissing('Investment yield report', `GET ${yieldPath}`, ['investmentYield']) ?? {
          scenario: 'Investment yield report',
          request: `GET ${yieldPath}`,
          ...(await httpFigures({ url: `${target.url}${yieldPath}`, api: person.api })),
        },
      ),
    );

  // paid, as most expenses entered on their day are: thousands of unpaid ones would all fall due today in the
  // forecast the later scenarios read (after the creates of a full run a year's forecast read 30,000 of them: 7 forecasts a second, 1.9× its baseline; before them 32, 1.2×)
  const body = {
    amount: 4590,
    date: data.today,
    is_expense: true,
    paid: true,
    title: 'Café',
    account_id: person.accountIds[1],
  };
  const missingCreate = skipIfMissing('Create transaction', 'POST /v1/transactions', ['createTransaction']);
  if (!wanted('create')) {
    // not asked for
  } else if (missingCreate) results.push(finish(missingCreate));
  else {
    const since = new Date();
    const paired = await pairedFigures(
      target,
      relays,
      { url: `${target.url}/v1/transactions`, api: person.api, method: 'POST', body },
      { url: `${bare.url}/v1/transactions`, api: person.api, method: 'POST', body },
      1,
      { settle: () => eventsDrained(target.databaseUrl, since) },
    );
    results.push(
      finish({
        scenario: 'Create transaction',
        request: 'POST /v1/transactions',
        ...paired,
        lag: await eventLag(target.databaseUrl, since),
        baseline: { name: 'bare express + pg insert', ...paired.baseline },
      }),
    );
  }

  const forecastEnd = addDays(data.today, 365);
  const forecast = `/v1/reports/cash-flow?end_date=${forecastEnd}`;
  if (wanted('cashflow')) {
    const scenario = 'Cash-flow forecast (a year)';
    const missing = skipIfMissing(scenario, `GET ${forecast}`, ['cashFlowReport']);
    if (missing) results.push(finish(missing));
    else {
      await seedForecast(person, data.today);
      const bills = await queryOnce<{ id: string }>(
        target.databaseUrl,
        'select id from billing.bills where credit_card_id = any($1::uuid[]) and rolled_over_at is null',
        [person.cardIds],
      );
      results.push(
        finish(
          await read(
            'cashflow',
            scenario,
            forecast,
            2,
            'raw SQL of the rows it reads',
            cashFlowStatements(
              person.userId,
              person.accountIds,
              forecastEnd,
              bills.map((bill) => bill.id),
            ),
            // the answer is a year of days, bigger than the rows it reads: the bare server sends its bytes too
            { body: JSON.stringify((await person.api.get(forecast)).body) },
          ),
        ),
      );
    }
  }

  if (wanted('splits')) results.push(finish(await splitReports(target, data)));

  if (wanted('rule')) results.push(finish(await recategorization(target, data)));
  if (wanted('statement')) {
    for (const result of await statementImportScenario(person.api, target.databaseUrl, target.rss, target.cpu.ours)) {
      results.push(finish(result));
    }
  }
  if (wanted('sync') && target.bank) {
    const { sandboxUrl, key, sandboxRss } = target.bank;
    const synced = await bankSyncScenario({
      url: target.url,
      sandboxUrl,
      api: new ApiClient(target.url, key),
      rss: target.rss,
      sandboxRss,
      settled: (since) => eventsDrained(target.databaseUrl, since),
    });
    for (const result of synced) results.push(finish(result));
  } else if (wanted('sync')) {
    const request = 'GET /v1/open-banking/callback + GET /v1/jobs/{id}';
    results.push(finish({ scenario: 'Sync from Banco Sandbox', request, skipped: 'no sandbox in this pass' }));
  }
  return results;
}

/**
 * The year's subcategory report of the person with one transaction in ten split in three parts, beside the same
 * report with those transactions whole (their flags off, their parts left), alternated window by window.
 */
async function splitReports(target: Target, data: BenchData): Promise<ScenarioResult> {
  const path = `/v1/reports/subcategory-details?start_date=${data.start}&end_date=${data.today}`;
  const request = `GET ${path}`;
  const missing = skipIfMissing('Subcategory report with splits', request, ['subcategoryReport']);
  if (missing) return missing;
  const person = data.personal;
  const split = await seedSplits(target.databaseUrl, person.userId);
  const load = { url: `${target.url}${path}`, api: person.api };
  const [on, off] = await alternated([
    { load, probe: target.cpu.ours, prepare: () => setSplit(target.databaseUrl, person.userId, true) },
    { load, probe: target.cpu.ours, prepare: () => setSplit(target.databaseUrl, person.userId, false) },
  ]);
  await setSplit(target.databaseUrl, person.userId, false);
  return {
    scenario: `Subcategory report (one year), ${split.toLocaleString('en-US')} transactions split (1 in 10)`,
    request,
    ...on.figures,
    baseline: { name: 'the same report, no transaction split', ...off.figures },
    cpu: { ours: on.cpu, baseline: off.cpu },
  };
}

/** The bills whose totals the show-bill answer reads: the card's bills not yet carried, and the bill itself. */
async function unrolledBills(databaseUrl: string, cardId: string, billId: string): Promise<string[]> {
  const rows = await queryOnce<{ id: string }>(
    databaseUrl,
    'select id from billing.bills where credit_card_id = $1 and (rolled_over_at is null or id = $2)',
    [cardId, billId],
  );
  return rows.map((row) => row.id);
}

/** Waits (up to 60 s) until insights has applied every `transaction.changed` event written since `since`. */
async function eventsDrained(databaseUrl: string, since: Date): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const pending = await client.query(
        `select count(*)::int as n from ledger.outbox_events o
          where o.type = 'transaction.changed' and o.created_at >= $1
            and not exists (select 1 from insights.processed_events p where p.event_id = o.id)`,
        [since],
      );
      if (pending.rows[0].n === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}

/**
 * Commit-to-insights lag of the `transaction.changed` events written since `since`: the insights inbox row's
 * time minus the outbox row's (both PostgreSQL clocks). Waits up to 60 s for the backlog to drain first, so a
 * queue that falls behind shows in the figure.
 */
async function eventLag(databaseUrl: string, since: Date) {
  await eventsDrained(databaseUrl, since);
  const [lags] = await queryOnce<{ events: number; p50: string; p99: string }>(
    databaseUrl,
    `select count(*)::int as events,
            percentile_cont(0.5) within group (order by lag) as p50,
            percentile_cont(0.99) within group (order by lag) as p99
       from (select extract(epoch from p.processed_at - o.created_at) * 1000 as lag
               from ledger.outbox_events o
               join insights.processed_events p on p.event_id = o.id
              where o.type = 'transaction.changed' and o.created_at >= $1) lags`,
    [since],
  );
  return { events: lags.events, p50: Math.round(Number(lags.p50)), p99: Math.round(Number(lags.p99)) };
}

/** Clients of the seeded keys, pointed at another gateway. */
function retarget(data: BenchData, url: string): BenchData {
  const move = (api: ApiClient) => new ApiClient(url, api.key);
  return {
    ...data,
    personal: { ...data.personal, api: move(data.personal.api) },
    company: { ...data.company, api: move(data.company.api) },
  };
}

const rssLine = (figures: Record<string, number>) =>
  `${Object.entries(figures)
    .map(([name, mb]) => `${name} ${mb}`)
    .join(', ')} (total ${Object.values(figures).reduce((sum, mb) => sum + mb, 0)})`;

/** What `npm start` needs to serve the bench's database with its keys and queues. */
const topologyEnv = (stack: TestStack, databaseUrl = stack.databaseUrl, queuePrefix = stack.env.QUEUE_PREFIX) => ({
  DATABASE_URL: databaseUrl,
  REDIS_URL: stack.env.REDIS_URL,
  QUEUE_PREFIX: queuePrefix,
  KEY_PEPPER: stack.pepper,
  RATE_LIMIT_MAX: '1000000000',
});

/**
 * Many tenants, last, once no stack holds the bench's database: its twin made, two `npm start` stacks, one on the
 * twin (its own queues) and one on the bench's database, where `TENANTS.contexts` others are added; every read of
 * the bench's contexts on both, window by window.
 */
async function tenantsScenario(stack: TestStack, plans: TenantsPlan[], data: BenchData, template: Tenant) {
  log('');
  const twinUrl = await twinDatabase(stack.databaseUrl);
  const alonePrefix = `${stack.env.QUEUE_PREFIX.slice(0, 26)}-alone`;
  const started: Topology[] = [];
  try {
    const crowded = await startTopology(topologyEnv(stack));
    started.push(crowded);
    const alone = await startTopology(topologyEnv(stack, twinUrl, alonePrefix));
    started.push(alone);
    log(`Many tenants: the bench's database and its twin, each behind its own npm start.`);
    const tenants = await manyTenants(
      {
        alone: { url: alone.url, databaseUrl: twinUrl },
        crowded: { url: crowded.url, databaseUrl: stack.databaseUrl },
      },
      plans,
      data,
      template,
      TENANTS,
      log,
    );
    const output = tenantsTable(tenants);
    log('');
    log(output);
    return { ...tenants, table: output };
  } finally {
    for (const topology of started) await topology.stop();
    await dropDatabase(twinUrl);
    await deleteRedisKeys(stack.env.REDIS_URL, `${alonePrefix}:*`).catch(() => undefined);
  }
}

/** The second pass: the same database and keys behind `npm start`, with each process's memory; many tenants last. */
async function topologyPass(
  stack: TestStack,
  data: BenchData,
  template: Tenant | null,
  bankKey: KeyCredentials | null,
) {
  const topology: Topology = await startTopology(topologyEnv(stack), { sandbox: bankKey !== null });
  try {
    // a few seconds to settle (workers connect, first schedulers run) before reading memory at rest
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const rest = topology.rss();
    const restPss = topology.pss();
    log(`RSS at rest (MB): ${JSON.stringify(rest)}; PSS: ${JSON.stringify(restPss)}`);
    const floor = await stackFloor({ DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.env.REDIS_URL });
    log(`${FLOOR_NAME}: RSS ${floor.rss} MB, PSS ${floor.pss} MB at rest`);
    const target: Target = {
      url: topology.url,
      databaseUrl: stack.databaseUrl,
      // the bare server runs in this process; ours in the four services (and the wrapper)
      cpu: { ours: probeOf(topology.pids), baseline: probeOf(() => ({ 'bare server': process.pid })) },
      bareHops: true,
      rss: () => topology.rss(),
      bank:
        topology.sandbox && bankKey
          ? { sandboxUrl: topology.sandbox.url, key: bankKey, sandboxRss: topology.sandbox.rss }
          : undefined,
    };
    const { result, peak } = await peakRss(topology, () => scenarios(target, retarget(data, topology.url)));
    const afterPss = topology.pss();
    log(`RSS peak under load (MB): ${JSON.stringify(peak)}; PSS after the load: ${JSON.stringify(afterPss)}`);
    // the records the many tenants' reads name, made while a gateway serves the bench's database
    const plans = template ? await tenantsPlans(topology.url, retarget(data, topology.url)) : null;
    return {
      results: result,
      rss: { rest, peak },
      pss: { rest: restPss, after_load: afterPss },
      stackFloor: floor,
      plans,
    };
  } finally {
    await topology.stop();
  }
}

/** The category and subcategory of the seeded "Diversos" subcategory: where a rule's rows go when moved away. */
async function diversos(databaseUrl: string): Promise<{ categoryId: string; subcategoryId: string }> {
  const [row] = await queryOnce<{ category_id: string }>(
    databaseUrl,
    'select category_id from ledger.subcategories where id = $1',
    [DIVERSOS],
  );
  return { categoryId: row.category_id, subcategoryId: DIVERSOS };
}

/**
 * PATCH the company's rule with apply_to_existing and follow its job to the end. Each pass moves every matched
 * row: the first to the rule's target, the next back to "Diversos" (the rule's category tells which), and the
 * baseline's UPDATE (rolled back) moves them the other way, so both sides change all of them.
 */
async function recategorization(target: Target, data: BenchData): Promise<ScenarioResult> {
  const rule = data.benchRule;
  const scenario = `Apply a rule to existing transactions`;
  const request = 'PATCH /v1/categorization-rules/{id} + GET /v1/jobs/{id}';
  const missing = skipIfMissing(scenario, request, ['updateRule', 'getJob']);
  if (missing) return missing;
  if (!rule || !data.company.profileId) return { scenario, request, skipped: 'no rule was seeded' };
  const api = data.company.api;
  const away = await diversos(target.databaseUrl);
  const current = await api.get(`/v1/categorization-rules/${rule.id}`);
  const there = current.body.category_id === rule.categoryId;
  const [to, back] = there ? [away, rule] : [rule, away];
  const started = performance.now();
  const patched = await api.patch(`/v1/categorization-rules/${rule.id}`, {
    category_id: to.categoryId,
    subcategory_id: to.subcategoryId,
    apply_to_existing: true,
  });
  if (patched.status !== 200) throw new Error(`PATCH rule: ${patched.status} ${JSON.stringify(patched.body)}`);
  let rows = patched.body.updated_existing_count as number;
  if (patched.body.job_id) {
    for (;;) {
      const job = await api.get(`/v1/jobs/${patched.body.job_id}`);
      if (job.body.state === 'failed') throw new Error(`recategorization failed: ${job.body.error}`);
      if (job.body.state === 'completed') {
        rows = job.body.result?.updated_count ?? rows;
        break;
      }
      if (performance.now() - started > 300_000) throw new Error('recategorization did not finish in 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const ms = performance.now() - started;
  const raw = await timeRolledBack(
    target.databaseUrl,
    recategorizeStatement(data.company.profileId, rule.merchantCnpjDigits, back.categoryId, back.subcategoryId),
  );
  return {
    scenario: `Apply a rule to ${rows.toLocaleString('en-US')} transactions`,
    request,
    ms,
    rows,
    baseline: { name: `one raw UPDATE of ${raw.rows.toLocaleString('en-US')} rows`, ms: raw.ms, rows: raw.rows },
  };
}

const began = performance.now();
log(`Benchmark: ${MODE}.`);
log(
  `${CONNECTIONS} connections, ${SECONDS} s per scenario in ${ROUNDS} windows alternating with its baselines', each after ${WARMUP_SECONDS} s of warm-up.`,
);
const loadBefore = machine().load_average;
log(`Machine: ${machine().cpus} CPUs, Node ${process.version}, load average ${loadBefore.join(' ')}.`);
// Banco Sandbox in its own process beside pass 1's stack, for the sync (pass 2's runs under npm start)
const stack = await TestStack.start({ env: { RATE_LIMIT_MAX: '1000000000' }, sandbox: wanted('sync') });
let stopped = false;
// dropping the database ends the sessions still open; a pool that has not seen its end yet reports it
process.on('uncaughtException', (err: Error & { code?: string }) => {
  if (err.code === '57P01') return;
  console.error(err);
  process.exit(1);
});
try {
  const seedStarted = performance.now();
  const data = await seedBenchData(stack, SCALE);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(`Seeded ${SCALE.transactions.toLocaleString('en-US')} transactions in ${seedSeconds.toFixed(1)} s:`);
  for (const note of data.notes) log(`  ${note}`);
  log('');
  log(`Pass 1: ${MODE}.`);
  // one process holds the whole stack and the bare server: the same probe on both sides
  const inProcess = probeOf(() => ({ 'bench process': process.pid }));
  // a fresh tenant connects the bank in each pass; pass 2's is made while the in-process gateway runs
  const bankKeys = wanted('sync') ? [(await stack.tenant()).key, (await stack.tenant()).key] : null;
  const results = await scenarios(
    {
      url: stack.url,
      databaseUrl: stack.databaseUrl,
      cpu: { ours: inProcess, baseline: inProcess },
      bareHops: false,
      bank: stack.sandbox && bankKeys ? { sandboxUrl: stack.sandbox.url, key: bankKeys[0] } : undefined,
    },
    data,
  );
  const output = [table(results), sameBytesTable(results)].filter(Boolean).join('\n\n');
  log('');
  log(output);
  let topology: Awaited<ReturnType<typeof topologyPass>> | null = null;
  let topologyOutput = '';
  // the template of the many other contexts: its user and key made while the in-process gateway runs
  const template = wanted('tenants') ? await stack.tenant() : null;
  let tenants: Awaited<ReturnType<typeof tenantsScenario>> | null = null;
  let plans = !TOPOLOGY && template ? await tenantsPlans(stack.url, data) : null;
  // the in-process services leave the queues and the database (kept) to the processes of npm start
  if (TOPOLOGY || plans) {
    process.env.TEST_RUN_ID ??= 'bench';
    await stack.stop();
    stopped = true;
  }
  if (TOPOLOGY) {
    log('');
    log(`Pass 2: ${TOPOLOGY_MODE}.`);
    topology = await topologyPass(stack, data, template, bankKeys?.[1] ?? null);
    plans = topology.plans;
    topologyOutput = [table(topology.results), sameBytesTable(topology.results)].filter(Boolean).join('\n\n');
    log('');
    log(topologyOutput);
    log('');
    log(`RSS MB at rest: ${rssLine(topology.rss.rest)}; peak under the load: ${rssLine(topology.rss.peak)}.`);
    log(`PSS MB at rest: ${rssLine(topology.pss.rest)}; after the load: ${rssLine(topology.pss.after_load)}.`);
    log(`${FLOOR_NAME}: RSS ${topology.stackFloor.rss} MB, PSS ${topology.stackFloor.pss} MB at rest.`);
  }
  if (plans && template) tenants = await tenantsScenario(stack, plans, data, template);
  const totalSeconds = (performance.now() - began) / 1000;
  log('');
  log(`Done in ${totalSeconds.toFixed(0)} s; figures in ${RESULTS}.`);
  writeResults(RESULTS, {
    machine: { ...machine(), load_average_at_start: loadBefore },
    setup: {
      mode: MODE,
      connections: CONNECTIONS,
      seconds_per_scenario: SECONDS,
      rounds: ROUNDS,
      warmup_seconds: WARMUP_SECONDS,
      scale: SCALE,
      seed_seconds: seedSeconds,
      seed_steps_seconds: data.seconds,
      seed_notes: data.notes,
      total_seconds: totalSeconds,
    },
    results,
    table: output,
    topology: topology
      ? {
          mode: TOPOLOGY_MODE,
          results: topology.results,
          rss_mb: topology.rss,
          pss_mb: topology.pss,
          stack_floor_mb: topology.stackFloor,
          table: topologyOutput,
        }
      : null,
    tenants,
  });
} finally {
  if (!stopped) await stack.stop();
  // pass 2's processes queued under the same prefix after the stack's own clean-up: leave Redis as found
  await deleteRedisKeys(stack.env.REDIS_URL, `${stack.env.QUEUE_PREFIX}:*`).catch(() => undefined);
  if (process.env.TEST_RUN_ID === 'bench') await dropDatabase(stack.databaseUrl);
}
