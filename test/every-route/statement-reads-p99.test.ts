import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { publicRoutes } from '@finance/shared/contracts/index';
import { pathOf } from '@finance/shared/contracts/route';
import { startLedgerWorker, stopLedgerWorkers } from '../support/ledger-worker.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { hostileStatementFiles, ofxFile } from '../support/statement-files.ts';
import { statementImported } from '../support/statement-imports.ts';
import { waitFor } from '../support/wait-for.ts';

/** The read another context must keep answering fast while the files arrive and are read. */
const P99_MS = 250;
/** No read of another context waits this long for our processes (a machine busy elsewhere may add its own waits). */
const STALL_MS = 1000;
const p99Of = (latencies: number[]) => [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)];

const settled = (state: string) => state === 'completed' || state === 'failed';

/** Streams a file from disk to the gateway from a process of its own, as an outside client would: its status and body. */
const POST_FILE = `
const [file, url, authorization, type] = process.argv.slice(1);
const req = require('node:http').request(url, { method: 'POST', headers: { authorization, 'content-type': type,
  'content-length': require('node:fs').statSync(file).size } }, (res) => {
  let body = '';
  res.setEncoding('utf8').on('data', (piece) => { body += piece; }).on('end', () => {
    process.stdout.write(JSON.stringify({ status: res.statusCode, body: JSON.parse(body) }));
  });
});
require('node:fs').createReadStream(file).pipe(req);`;
const run = promisify(execFile);

/**
 * Every statement file route of the table, with hostile 10 MiB files of each accepted type, the way they are served:
 * the gateway and the services' HTTP in this process, the ledger's workers (the statement-file reader among them) in
 * a process of their own. Taking and storing the files never holds the event loop, so another context's reads keep
 * their p99 under 250 ms (on a machine other suites keep busy: within twice the same reads without files), and no
 * stall holds them a second.
 */
describe('hostile statement files: never a 500, never a stall for other contexts', () => {
  let stack: TestStack;
  let uploader: Tenant;
  let reader: Tenant;

  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    stack = await TestStack.start({ env: { RATE_LIMIT_MAX: '100000' }, serviceEnv: { ledger: { ROLE: 'api' } } });
    workers.push(startLedgerWorker(stack));
    uploader = await stack.tenant();
    reader = await stack.tenant();
    await reader.api.post('/v1/accounts', { name: 'Leitora', logo: '341' });
  });
  afterAll(async () => {
    stopLedgerWorkers(workers);
    await stack?.stop();
  });

  it('when hostile 10 MiB files of each type go to every statement route, then another context reads with p99 under 250 ms and no answer is a 500', async () => {
    const account = (await uploader.api.post('/v1/accounts', { name: 'Extratos', logo: '341' })).body.id;
    const card = (
      await uploader.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: account,
        closing_date: 3,
        expiring_date: 10,
        limit: 100_000,
      })
    ).body.id;
    const routes = publicRoutes.filter((route) => route.file);
    expect(routes.map((route) => route.operationId).sort()).toEqual(['importAccountStatement', 'importCardStatement']);
    const pathFor = (route: (typeof routes)[number]) =>
      pathOf(route, { id: route.operationId === 'importCardStatement' ? card : account });
    // every module these routes and the worker load, loaded before the clock starts
    for (const route of routes) {
      const file = ofxFile([{ fitid: 'aquece', date: '2026-01-05', amount: '-1,00', memo: 'Aquecimento' }]);
      await statementImported(uploader.api, pathFor(route), file);
      await reader.api.get('/v1/accounts');
    }

    const files = hostileStatementFiles();
    const folder = mkdtempSync(join(tmpdir(), 'extratos-'));
    // each file made and written to disk before the clock starts, one at a time: making 10 MiB holds this process's
    // event loop (the gateway's) for 100 ms and more, and holding them all in memory lengthens every GC pause
    const onDisk = files.map((file, n) => {
      const path = join(folder, `extrato-${n}`);
      writeFileSync(path, file.body());
      return path;
    });
    let latencies: number[] = [];
    let reading = true;
    const readLoop = async () => {
      while (reading) {
        const started = performance.now();
        const response = await reader.api.get('/v1/accounts');
        latencies.push(performance.now() - started);
        expect(response.status).toBe(200);
      }
    };
    // the same reads on this machine as it is now, without files: what the files' reads are held against
    let loops = [readLoop(), readLoop()];
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    reading = false;
    await Promise.all(loops);
    const baseline = p99Of(latencies);
    const baselineSlowest = Math.max(...latencies);
    latencies = [];
    reading = true;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    loops = [readLoop(), readLoop()];

    const outcomes: Array<{ name: string; status: number; failure: string | null }> = [];
    for (const route of routes) {
      const path = pathFor(route);
      // one file after the other, each sent by a client outside this process
      for (const [n, file] of files.entries()) {
        await (async () => {
          const url = `${stack.url}${path}${file.query ? `?${file.query}` : ''}`;
          const auth = uploader.api.authorization() as string;
          const posted = await run(process.execPath, ['-e', POST_FILE, onDisk[n], url, auth, file.contentType]);
          const response = JSON.parse(posted.stdout) as { status: number; body: any };
          let failure: string | null = response.status >= 400 ? response.body.message : null;
          if (response.status === 202) {
            const job = await waitFor(async () => {
              const current = (await uploader.api.get(`/v1/jobs/${response.body.job.id}`)).body;
              return settled(current.state) && current;
            }, 120_000);
            failure = job.error;
          }
          outcomes.push({ name: `${route.operationId} ${file.name}`, status: response.status, failure });
        })();
      }
    }
    reading = false;
    await Promise.all(loops);
    loop.disable();
    rmSync(folder, { recursive: true, force: true });

    // refused (400, or a failed job naming the line) or read to the end; never a server error
    for (const outcome of outcomes) {
      expect(outcome.status).toBeLessThan(500);
      if (outcome.failure) expect(outcome).toMatchObject({ failure: expect.stringMatching(/linha \d+: /) });
    }
    const p99 = p99Of(latencies);
    expect(latencies.length).toBeGreaterThan(100);
    // the longest the process's event loop was held, to tell a stall from a busy machine
    const held = Math.round(loop.max / 1e6);
    const figures = {
      p99: Math.round(p99),
      baseline: Math.round(baseline),
      held,
      slowest: Math.round(Math.max(...latencies)),
      baselineSlowest: Math.round(baselineSlowest),
    };
    // reads slower than a second and than three times the slowest read without files (the other suites of a 2-core
    // CI machine hold single reads for a second on their own)
    const slowReads = latencies.filter((ms) => ms >= Math.max(STALL_MS, 3 * baselineSlowest)).length;
    process.stdout.write(`statement-reads-p99: ${JSON.stringify({ ...figures, slowReads })}\n`);
    // under 250 ms, or (a machine busy with other suites) no worse than twice the same reads without files; never a
    // read held a second by the serving process's event loop, and no stall: one of ours (that loop, a lock) holds
    // both loops' reads at once, while a single slow read alone is the machine's
    const stalled = held >= STALL_MS || slowReads > 1;
    expect({ ...figures, under: p99 < Math.max(P99_MS, 2 * baseline), stalled }).toEqual({
      ...figures,
      under: true,
      stalled: false,
    });
  }, 300_000);
});
