import type { ApiClient } from '../test/support/api-client.ts';
import { ofxFile } from '../test/support/statement-files.ts';
import { timeRolledBack } from './raw-sql.ts';
import type { ScenarioResult } from './report.ts';

/** Entries of the statement the scenario imports (`BENCH_STATEMENT_ENTRIES`). */
export const STATEMENT_ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 10_000);

/** A year of a busy account: `count` entries with their FITIDs, up to six a day, amounts with a decimal comma. */
function busyYear(count: number) {
  return ofxFile(
    Array.from({ length: count }, (_, i) => {
      const day = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 6) * 86_400_000).toISOString().slice(0, 10);
      const cents = 100 + ((i * 7919) % 500_000);
      return {
        fitid: `bench-${i}`,
        date: day,
        time: '120000[-3:BRT]',
        amount: `${i % 5 === 0 ? '' : '-'}${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, '0')}`,
        memo: `Compra ${i % 97} Padaria São João`,
      };
    }),
  );
}

async function importedIn(
  api: ApiClient,
  path: string,
  file: Buffer,
): Promise<{ ms: number; result: { created: number } }> {
  const started = performance.now();
  const response = await api.request('POST', path, { rawBody: file, headers: { 'content-type': 'application/x-ofx' } });
  if (response.status !== 200 && response.status !== 202) {
    throw new Error(`statement import: ${response.status} ${JSON.stringify(response.body)}`);
  }
  let job = response.body.job;
  while (job.state !== 'completed') {
    if (job.state === 'failed') throw new Error(`statement import failed: ${job.error}`);
    if (performance.now() - started > 300_000) throw new Error('statement import did not finish in 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 50));
    job = (await api.get(`/v1/jobs/${job.id}`)).body;
  }
  return { ms: performance.now() - started, result: job.result };
}

/**
 * `POST /v1/accounts/{id}/statements` of a 10,000-entry OFX 1.0.2 file into a new account, followed to its job's
 * end (read, deduplicated, written, rules and reconciliation), beside its floor: one raw INSERT of the same
 * number of rows (rolled back). Then the same file again, which must create nothing.
 */
export async function statementImportScenario(api: ApiClient, databaseUrl: string): Promise<ScenarioResult[]> {
  const account = await api.post('/v1/accounts', { name: 'Extrato do bench', logo: '341' });
  if (account.status !== 201) throw new Error(`account: ${account.status}`);
  const path = `/v1/accounts/${account.body.id}/statements`;
  const file = busyYear(STATEMENT_ENTRIES);
  const first = await importedIn(api, path, file);
  if (first.result.created !== STATEMENT_ENTRIES)
    throw new Error(`created ${first.result.created} of ${STATEMENT_ENTRIES}`);
  const again = await importedIn(api, path, file);
  if (again.result.created !== 0) throw new Error(`a re-import created ${again.result.created}`);
  const raw = await timeRolledBack(databaseUrl, {
    text: `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, paid, type, account_id,
             external_id, created_at, updated_at)
           select gen_random_uuid(), a.user_id, 100 + i, date '2025-01-01' + i / 6, 'Compra', true, true, 'FIXED', a.id,
             'raw-' || i, now(), now()
           from generate_series(1, $1::int) as i, ledger.accounts a where a.id = $2`,
    values: [STATEMENT_ENTRIES, account.body.id],
  });
  const perSecond = (ms: number) => Math.round((STATEMENT_ENTRIES / ms) * 1000).toLocaleString('en-US');
  const lines = file.toString('latin1').split('\r\n').length.toLocaleString('en-US');
  return [
    {
      scenario: `Import an OFX statement of ${STATEMENT_ENTRIES.toLocaleString('en-US')} entries (${lines} lines, ${(file.length / 1e6).toFixed(1)} MB): ${perSecond(first.ms)} entries/s`,
      request: `POST ${path.replace(account.body.id, '{id}')} + GET /v1/jobs/{id}`,
      ms: first.ms,
      rows: STATEMENT_ENTRIES,
      baseline: { name: `one raw INSERT of ${raw.rows.toLocaleString('en-US')} rows`, ms: raw.ms, rows: raw.rows },
    },
    {
      scenario: `The same statement again (0 created): ${perSecond(again.ms)} entries/s`,
      request: `POST ${path.replace(account.body.id, '{id}')} + GET /v1/jobs/{id}`,
      ms: again.ms,
      rows: STATEMENT_ENTRIES,
    },
  ];
}
