import { once } from 'node:events';
import { stackWithWorkerProcesses } from '../../../../test/support/ledger-worker.ts';
import { ofxFile } from '../../../../test/support/statement-files.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';

const ENTRIES = 16_000;

interface JobRow {
  state: string;
  progress: number;
  result: { created: number; duplicates: number; lines: number } | null;
}

describe('statement-file worker killed mid-import', () => {
  // the in-process ledger serves HTTP only: the queue is consumed by worker processes, whose killed one's lock
  // lapses in seconds, not 30 s: same takeover path, shorter wait
  const fixture = stackWithWorkerProcesses({ STATEMENT_FILES_LOCK_MS: '3000' });

  const job = async (id: string) =>
    (
      await fixture.stack.sql<JobRow>('select state, progress, result from ledger.background_jobs where id = $1', [id])
    )[0];

  it('when the worker is killed between two batches of the pipeline, then another goes on from there and every entry exists once', async () => {
    const { stack, tenant } = fixture;
    const account = (await tenant.api.post('/v1/accounts', { name: 'Extrato grande', logo: '341' })).body.id;
    const file = ofxFile(
      Array.from({ length: ENTRIES }, (_, i) => ({
        fitid: `crash-${i}`,
        date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        amount: `-${1 + (i % 700)},${String(i % 100).padStart(2, '0')}`,
        memo: `Compra ${i % 50}`,
      })),
    );
    const first = fixture.startWorker();
    const accepted = await tenant.api.request('POST', `/v1/accounts/${account}/statements`, {
      rawBody: file,
      headers: { 'content-type': 'application/x-ofx' },
    });
    expect(accepted.status).toBe(202);
    const id = accepted.body.job.id;

    // past the reading (20 %) and at least one batch of the pipeline, before the last
    await waitFor(
      async () => {
        const current = await job(id);
        return current.state === 'active' && current.progress >= 30 && current.progress < 90;
      },
      120_000,
      50,
    );
    first.kill('SIGKILL');
    await once(first, 'exit');
    const [atKill] = await stack.sql<{ imported: number }>(
      'select imported from ledger.statement_files where job_id = $1',
      [id],
    );
    expect(atKill.imported).toBeGreaterThan(0);
    expect(atKill.imported).toBeLessThan(ENTRIES);

    fixture.startWorker();
    const done = await waitFor(async () => {
      const current = await job(id);
      return current.state === 'completed' && current;
    }, 120_000);
    expect(done.result?.lines).toBe(ENTRIES);
    // a batch the killed worker wrote but had not recorded counts as duplicates the second time
    expect((done.result?.created ?? 0) + (done.result?.duplicates ?? 0)).toBe(ENTRIES);
    const [counts] = await stack.sql<{ transactions: number; keys: number; distinct_keys: number }>(
      `select (select count(*)::int from ledger.transactions where account_id = $1) as transactions,
              count(*)::int as keys, count(distinct key)::int as distinct_keys
       from ledger.import_keys where source = 'ofx:' || $1`,
      [account],
    );
    expect(counts).toEqual({ transactions: ENTRIES, keys: ENTRIES, distinct_keys: ENTRIES });
  }, 240_000);
});
