import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { readStatementFile } from '../services/ledger/src/domain/statements/statement-entries.ts';
import { StatementDecoder } from '../services/ledger/src/domain/statements/statement-text.ts';
import type { ApiClient } from '../test/support/api-client.ts';
import { csvFile, type OfxEntry, ofxFile } from '../test/support/statement-files.ts';
import { addUsage, type CpuProbe, type CpuSample, databaseServers, perRequest } from './cpu.ts';
import type { ScenarioResult } from './report.ts';

/** Entries of each statement the scenario imports (`BENCH_STATEMENT_ENTRIES`): 60,000 make files of about 10 MiB. */
export const STATEMENT_ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 60_000);

/** A busy account's year: up to six entries a day, amounts with a decimal comma, descriptions as card machines write them. */
function busyYear(count: number): OfxEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const cents = 100 + ((i * 7919) % 500_000);
    return {
      fitid: `bench-${i}`,
      date: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 6) * 86_400_000).toISOString().slice(0, 10),
      time: '120000[-3:BRT]',
      amount: `${i % 5 === 0 ? '' : '-'}${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, '0')}`,
      memo: `Compra ${i % 97} Padaria São João Centro Loja ${i % 13}`,
    };
  });
}

/** The same entries as a `nubank-conta` CSV export, its descriptions as long as the OFX's lines, so both weigh alike. */
const csvOf = (entries: OfxEntry[]) =>
  csvFile([
    ['Data', 'Valor', 'Identificador', 'Descrição'],
    ...entries.map((entry) => [
      entry.date.split('-').reverse().join('/'),
      entry.amount.replace(',', '.'),
      entry.fitid as string,
      `${entry.memo} - Rua das Flores, 123 - São Paulo/SP - cartão final 1234 - autorização ${entry.fitid}`,
    ]),
  ]);

interface Sampled {
  ms: number;
  answerMs: number;
  status: number;
  result: { created: number; duplicates: number; lines: number };
  /** The highest RSS (MB) of each process while it ran, when the scenario runs on `npm start`. */
  peak: Record<string, number>;
  /** CPU ms each process used from the POST to the job's end. */
  used: CpuSample;
}

/** POSTs a file and follows its job to the end: the answer's time, the whole time, the job's result, RSS peaks, CPU. */
async function imported(
  api: ApiClient,
  path: string,
  file: Buffer,
  contentType: string,
  rss?: () => Record<string, number>,
  cpu: CpuProbe = () => ({}),
): Promise<Sampled> {
  const peak: Record<string, number> = {};
  const sample = () => {
    for (const [name, mb] of Object.entries(rss?.() ?? {})) peak[name] = Math.max(peak[name] ?? 0, mb);
  };
  const timer = setInterval(sample, 250);
  try {
    const before = cpu();
    const started = performance.now();
    const response = await api.request('POST', path, { rawBody: file, headers: { 'content-type': contentType } });
    const answerMs = performance.now() - started;
    if (response.status !== 200 && response.status !== 202) {
      throw new Error(`statement import: ${response.status} ${JSON.stringify(response.body)}`);
    }
    let job = response.body.job;
    while (job.state !== 'completed') {
      if (job.state === 'failed') throw new Error(`statement import failed: ${job.error}`);
      if (performance.now() - started > 600_000) throw new Error('statement import did not finish in 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await api.get(`/v1/jobs/${job.id}`)).body;
    }
    const ms = performance.now() - started;
    sample();
    const used = addUsage({}, before, cpu());
    return { ms, answerMs, status: response.status, result: job.result, peak, used };
  } finally {
    clearInterval(timer);
  }
}

/** The floor: the same rows COPYed into ledger.transactions by a pg client (rolled back), and PostgreSQL's CPU. */
async function copiedIn(
  databaseUrl: string,
  accountId: string,
  entries: OfxEntry[],
): Promise<{ ms: number; rows: number; used: CpuSample }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [account] = (await client.query('select user_id from ledger.accounts where id = $1', [accountId])).rows;
    const now = new Date().toISOString();
    const lines = entries.map((entry) => {
      const cents = Number(entry.amount.replace(/[-,]/g, ''));
      return `${crypto.randomUUID()}\t${account.user_id}\t${cents}\t${entry.date}\t${entry.memo}\t${entry.amount.startsWith('-')}\tt\tFIXED\t${accountId}\tcopy-${entry.fitid}\t${now}\t${now}\n`;
    });
    await client.query('begin');
    const before = databaseServers();
    const started = performance.now();
    const copy = client.query(
      copyFrom(`copy ledger.transactions (id, user_id, amount, date, title, is_expense, paid, type, account_id, external_id,
                  created_at, updated_at) from stdin`),
    );
    const done = new Promise<void>((resolve, reject) => copy.on('finish', resolve).on('error', reject));
    for (let i = 0; i < lines.length; i += 5000) copy.write(lines.slice(i, i + 5000).join(''));
    copy.end();
    await done;
    const ms = performance.now() - started;
    const used = addUsage({}, before, databaseServers());
    await client.query('rollback');
    return { ms, rows: copy.rowCount ?? entries.length, used };
  } finally {
    await client.end();
  }
}

/** Our side's CPU per entry: the file read as the worker reads it (both passes), from memory, in this process. */
async function readingMicros(file: Buffer, format: 'ofx' | 'csv', query: Record<string, string>): Promise<number> {
  let entries = 0;
  const started = performance.now();
  for (let pass = 0; pass < 2; pass++) {
    async function* pieces() {
      const decoder = new StatementDecoder('utf-8');
      for (let at = 0; at < file.length; at += 256 * 1024) yield decoder.decode(file.subarray(at, at + 256 * 1024));
    }
    await readStatementFile(pieces(), { format, query, timeZone: 'America/Sao_Paulo' }, (row) => {
      if ('entry' in row) entries++;
    });
  }
  return ((performance.now() - started) * 1000) / entries;
}

const mib = (file: Buffer) => `${(file.length / (1024 * 1024)).toFixed(1)} MiB`;
const perSecond = (rows: number, ms: number) => Math.round((rows / ms) * 1000).toLocaleString('en-US');
const peaks = (peak: Record<string, number>) =>
  Object.keys(peak).length === 0
    ? ''
    : `; RSS peak ${Object.entries(peak)
        .filter(([name]) => name.startsWith('ledger'))
        .map(([name, mb]) => `${name} ${mb} MB`)
        .join(', ')}`;

/**
 * `POST /v1/accounts/{id}/statements` of a 10 MiB OFX (60,000 entries) and of a 10 MiB CSV of the same entries, each
 * into a new account and followed to its job's end: the POST's answer time (the file stored, its job queued), the
 * entries a second end to end beside a COPY of the same rows (rolled back), the ledger's and the statement-file
 * worker's RSS peaks (on `npm start`), the same file again (recognized, not read) and the same entries in another
 * file (read, every entry a duplicate); and what reading a file costs an entry, both passes, in this process. With
 * `cpu` (the pass's processes), each process's CPU an entry of the first import, beside PostgreSQL's a row of the COPY.
 */
export async function statementImportScenario(
  api: ApiClient,
  databaseUrl: string,
  rss?: () => Record<string, number>,
  cpu?: CpuProbe,
): Promise<ScenarioResult[]> {
  const entries = busyYear(STATEMENT_ENTRIES);
  const count = entries.length.toLocaleString('en-US');
  const formats: Array<{ format: 'ofx' | 'csv'; file: Buffer; type: string; query: Record<string, string> }> = [
    { format: 'ofx', file: ofxFile(entries), type: 'application/x-ofx', query: {} },
    { format: 'csv', file: csvOf(entries), type: 'text/csv', query: { preset: 'nubank-conta' } },
  ];
  const results: ScenarioResult[] = [];
  // the server as one in service is: it has taken an upload of each format since it started (the first after a
  // start also loads the route's code and opens its connections)
  const warm = await api.post('/v1/accounts', { name: 'Aquecimento do bench', logo: '341' });
  for (const { format, type, query } of formats) {
    const small = format === 'ofx' ? ofxFile(entries.slice(0, 10)) : csvOf(entries.slice(0, 10));
    await imported(api, `/v1/accounts/${warm.body.id}/statements?${new URLSearchParams(query)}`, small, type);
  }
  for (const { format, file, type, query } of formats) {
    const name = format.toUpperCase();
    const account = await api.post('/v1/accounts', { name: `Extrato ${name} do bench`, logo: '341' });
    if (account.status !== 201) throw new Error(`account: ${account.status}`);
    const path = `/v1/accounts/${account.body.id}/statements?${new URLSearchParams(query)}`;
    const request = `POST ${path.replace(account.body.id, '{id}')} + GET /v1/jobs/{id}`;
    const first = await imported(api, path, file, type, rss, cpu);
    if (first.result.created !== entries.length)
      throw new Error(`${name}: created ${first.result.created} of ${count}`);
    const again = await imported(api, path, file, type, rss);
    if (again.result.created !== 0) throw new Error(`${name}: the same file again created ${again.result.created}`);
    // the same entries, other bytes: read again, every entry found there
    const copy = Buffer.concat([file, Buffer.from(format === 'ofx' ? '<!-- 2ª via -->\r\n' : '\r\n')]);
    const reread = await imported(api, path, copy, type, rss);
    if (reread.result.created !== 0)
      throw new Error(`${name}: the same entries again created ${reread.result.created}`);
    const floor = await copiedIn(databaseUrl, account.body.id, entries);
    const micros = await readingMicros(file, format, query);
    results.push(
      {
        // a file up to 1 MiB is waited for up to 5 s; a larger one is answered at once
        scenario: `POST of a ${mib(file)} ${name} statement answered ${first.status}${file.length <= 1024 * 1024 ? ' (waited)' : ''}`,
        request: `POST ${path.replace(account.body.id, '{id}')}`,
        ms: first.answerMs,
      },
      {
        scenario: `Import a ${mib(file)} ${name} statement of ${count} entries: ${perSecond(entries.length, first.ms)} entries/s${peaks(first.peak)}`,
        request,
        ms: first.ms,
        rows: entries.length,
        baseline: {
          name: `COPY of the same ${floor.rows.toLocaleString('en-US')} rows`,
          ms: floor.ms,
          rows: floor.rows,
        },
        ...(cpu && {
          cpu: { ours: perRequest(first.used, entries.length), baseline: perRequest(floor.used, floor.rows) },
        }),
        cpuPer: 'entry',
      },
      {
        scenario: `The same ${name} file again (0 created, not read again): ${perSecond(entries.length, again.ms)} entries/s`,
        request,
        ms: again.ms,
        rows: entries.length,
      },
      {
        scenario: `The same ${name} entries in another file (read, 0 created): ${perSecond(entries.length, reread.ms)} entries/s${peaks(reread.peak)}`,
        request,
        ms: reread.ms,
        rows: entries.length,
      },
      {
        scenario: `Reading the ${name} file, both passes, in the bench process: ${micros.toFixed(1)} µs an entry`,
        request: 'readStatementFile ×2 (no database)',
        ms: (micros * entries.length) / 1000,
        rows: entries.length,
      },
    );
  }
  return results;
}
