import { fileURLToPath } from 'node:url';
import { addMonthsClamped, endOfMonth, startOfMonth } from '@finance/shared/calendar';
import type { ApiClient } from '../test/support/api-client.ts';
import { TestStack } from '../test/support/stack.ts';
import { startBaselineServer } from './baseline-server.ts';
import { drive } from './load.ts';
import {
  billStatement,
  listStatement,
  recategorizeStatement,
  sqlLoad,
  subcategoryStatement,
  timeRolledBack,
} from './raw-sql.ts';
import { type Figures, machine, ratioOf, type ScenarioResult, table, writeResults } from './report.ts';
import { available, type RouteName } from './routes.ts';
import { type BenchData, DIVERSOS, FULL_SCALE, type SeedOptions, seedBenchData } from './seed.ts';

/**
 * `npm run bench`: the whole system in this process (as the component tests start it: fresh database
 * `finance_test_*`, dropped at the end), seeded with a year of data, driven through the gateway by
 * autocannon in a child process; each scenario beside a baseline measured in the same run.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
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

const log = (line: string) => process.stdout.write(`${line}\n`);

async function httpFigures(
  url: string,
  api: ApiClient,
  method: 'GET' | 'POST' = 'GET',
  body?: unknown,
): Promise<Figures> {
  const headers: Record<string, string> = { authorization: api.authorization() as string };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const options = { url, method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  await drive({ ...options, connections: CONNECTIONS, seconds: WARMUP_SECONDS });
  const result = await drive({ ...options, connections: CONNECTIONS, seconds: SECONDS });
  return {
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors,
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
    const ratio = done.ratio === undefined ? '' : `, ${done.ratio.toFixed(1)}× the baseline`;
    log(`- ${done.scenario}: ${figure}${failures}${ratio}`);
  }
  return done;
}

const skipIfMissing = (scenario: string, request: string, routes: RouteName[]): ScenarioResult | null => {
  const missing = routes.filter((route) => !available(route));
  return missing.length ? { scenario, request, skipped: `route ${missing.join(', ')} does not exist yet` } : null;
};

async function scenarios(stack: TestStack, data: BenchData): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const person = data.personal;
  const month = addMonthsClamped(startOfMonth(data.today), -6);

  const list = `/v1/transactions?limit=50&start_date=${month}&end_date=${endOfMonth(month)}`;
  results.push(
    finish(
      skipIfMissing('List transactions (50, one month)', `GET ${list}`, ['listTransactions']) ?? {
        scenario: 'List transactions (50, one month)',
        request: `GET ${list}`,
        ...(await httpFigures(`${stack.url}${list}`, person.api)),
        baseline: {
          name: 'raw SQL',
          ...(await sqlLoad(
            stack.databaseUrl,
            listStatement(person.userId, month, endOfMonth(month), 50),
            CONNECTIONS,
            SECONDS,
          )),
        },
      },
    ),
  );

  const billMonth = addMonthsClamped(startOfMonth(data.today), -2);
  const bill = `/v2/bills/show-by-card/${person.cardIds[0]}?date=${billMonth}`;
  const missingBill = skipIfMissing('Show bill', `GET ${bill}`, ['showBill']);
  if (missingBill || !person.cardIds.length) {
    results.push(
      finish(missingBill ?? { scenario: 'Show bill', request: `GET ${bill}`, skipped: 'no cards were seeded' }),
    );
  } else {
    // the bill's size drives its cost: say it beside the figures
    const sample = await person.api.get(bill);
    const count = (sample.body.transactions?.length ?? 0).toLocaleString('en-US');
    results.push(
      finish({
        scenario: `Show bill (${count} transactions)`,
        request: `GET ${bill}`,
        ...(await httpFigures(`${stack.url}${bill}`, person.api)),
        baseline: {
          name: 'raw SQL of its rows',
          ...(await sqlLoad(stack.databaseUrl, billStatement(sample.body.bill.id), CONNECTIONS, SECONDS)),
        },
      }),
    );
  }

  const report = `/v1/reports/subcategory-details?start_date=${data.start}&end_date=${data.today}`;
  results.push(
    finish(
      skipIfMissing('Subcategory report (one year)', `GET ${report}`, ['subcategoryReport']) ?? {
        scenario: 'Subcategory report (one year)',
        request: `GET ${report}`,
        ...(await httpFigures(`${stack.url}${report}`, person.api)),
        baseline: {
          name: 'raw SQL aggregate',
          ...(await sqlLoad(
            stack.databaseUrl,
            subcategoryStatement(person.userId, data.start, data.today),
            CONNECTIONS,
            SECONDS,
          )),
        },
      },
    ),
  );

  const yieldPath = `/v1/investments/yield?date=${data.today}&limit=20`;
  results.push(
    finish(
      skipIfMissing('Investment yield report', `GET ${yieldPath}`, ['investmentYield']) ?? {
        scenario: 'Investment yield report',
        request: `GET ${yieldPath}`,
        ...(await httpFigures(`${stack.url}${yieldPath}`, person.api)),
      },
    ),
  );

  const body = { amount: 4590, date: data.today, is_expense: true, title: 'Café', account_id: person.accountIds[1] };
  const missingCreate = skipIfMissing('Create transaction', 'POST /v1/transactions', ['createTransaction']);
  if (missingCreate) results.push(finish(missingCreate));
  else {
    const gateway = await httpFigures(`${stack.url}/v1/transactions`, person.api, 'POST', body);
    const baseline = await startBaselineServer(stack.databaseUrl, person.userId);
    try {
      results.push(
        finish({
          scenario: 'Create transaction',
          request: 'POST /v1/transactions',
          ...gateway,
          baseline: {
            name: 'bare express + pg insert',
            ...(await httpFigures(`${baseline.url}/v1/transactions`, person.api, 'POST', body)),
          },
        }),
      );
    } finally {
      await baseline.stop();
    }
  }

  results.push(finish(await recategorization(stack, data)));
  return results;
}

/** PATCH the company's rule with apply_to_existing and follow its job to the end. */
async function recategorization(stack: TestStack, data: BenchData): Promise<ScenarioResult> {
  const rule = data.benchRule;
  const scenario = `Apply a rule to existing transactions`;
  const request = 'PATCH /v1/categorization-rules/{id} + GET /v1/jobs/{id}';
  const missing = skipIfMissing(scenario, request, ['updateRule', 'getJob']);
  if (missing) return missing;
  if (!rule || !data.company.profileId) return { scenario, request, skipped: 'no rule was seeded' };
  const api = data.company.api;
  const started = performance.now();
  const patched = await api.patch(`/v1/categorization-rules/${rule.id}`, {
    category_id: rule.categoryId,
    subcategory_id: rule.subcategoryId,
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
  const diversos = await stack.sql<{ category_id: string }>(
    'select category_id from ledger.subcategories where id = $1',
    [DIVERSOS],
  );
  const raw = await timeRolledBack(
    stack.databaseUrl,
    recategorizeStatement(data.company.profileId, rule.merchantCnpjDigits, diversos[0].category_id, DIVERSOS),
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
log(`${CONNECTIONS} connections, ${SECONDS} s per scenario after ${WARMUP_SECONDS} s of warm-up.`);
const loadBefore = machine().load_average;
log(`Machine: ${machine().cpus} CPUs, Node ${process.version}, load average ${loadBefore.join(' ')}.`);
const stack = await TestStack.start({ env: { RATE_LIMIT_MAX: '1000000000' } });
try {
  const seedStarted = performance.now();
  const data = await seedBenchData(stack, SCALE);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(`Seeded ${SCALE.transactions.toLocaleString('en-US')} transactions in ${seedSeconds.toFixed(1)} s:`);
  for (const note of data.notes) log(`  ${note}`);
  const results = await scenarios(stack, data);
  const output = table(results);
  log('');
  log(output);
  const totalSeconds = (performance.now() - began) / 1000;
  log('');
  log(`Done in ${totalSeconds.toFixed(0)} s; figures in ${RESULTS}.`);
  writeResults(RESULTS, {
    machine: { ...machine(), load_average_at_start: loadBefore },
    setup: {
      mode: MODE,
      connections: CONNECTIONS,
      seconds_per_scenario: SECONDS,
      warmup_seconds: WARMUP_SECONDS,
      scale: SCALE,
      seed_seconds: seedSeconds,
      seed_steps_seconds: data.seconds,
      seed_notes: data.notes,
      total_seconds: totalSeconds,
    },
    results,
    table: output,
  });
} finally {
  // dropping the database ends the sessions still open; a pool that has not seen its end yet reports it
  process.on('uncaughtException', (err: Error & { code?: string }) => {
    if (err.code === '57P01') return;
    console.error(err);
    process.exit(1);
  });
  await stack.stop();
}
