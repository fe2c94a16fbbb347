import { once } from 'node:events';
import { stackWithWorkerProcesses } from '../../../../test/support/ledger-worker.ts';
import {
  categoriesOf,
  megaLojaRule,
  recategorizedInEvents,
  recordedJobOf,
} from '../../../../test/support/merchant-transactions.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const MORADIA = 'c0000000-0000-4000-8000-000000000002';
const ALUGUEL = '5c000000-0000-4000-8000-000200000001';
const MATCHING = 50_000;

interface JobRow {
  state: string;
  progress: number;
  result: { updated_count: number } | null;
}

describe('recategorization worker killed mid-run (issue 6, acceptance 2)', () => {
  // the in-process ledger serves HTTP only: the queue is consumed by worker processes, whose killed one's lock
  // lapses in seconds, not 30 s: same takeover path, shorter wait
  const fixture = stackWithWorkerProcesses({ RECATEGORIZATION_LOCK_MS: '3000' });

  const job = async (id: string) =>
    (
      await fixture.stack.sql<JobRow>('select state, progress, result from ledger.background_jobs where id = $1', [id])
    )[0];

  it('when the worker is killed between 1 and 99 %, then a new one finishes with every match recategorized once and an exact count', async () => {
    const { stack, tenant } = fixture;
    const { accountId: account, sourceId, rule } = await megaLojaRule(stack, tenant, ALIMENTACAO);

    // one statement each: the matching history (spelled several ways) and rows that must not change
    await stack.sql(
      `insert into ledger.transactions (id, user_id, profile_id, amount, date, title, is_expense, paid, type, installments,
         currency, account_id, merchant_name, merchant_cnpj, created_at, updated_at)
       select gen_random_uuid(), $1, null, 100 + g, date '2025-01-01' + (g % 365), 'Compra ' || g, true, true, 'FIXED', 1,
         'BRL', $2, (array['MEGA LOJA', 'Mega Lója', '  mega   loja ', 'Mêga Loja'])[1 + g % 4], null, now(), now()
       from generate_series(1, $3::int) g`,
      [tenant.userId, account, MATCHING],
    );
    await stack.sql(
      `insert into ledger.transactions (id, user_id, profile_id, amount, date, title, is_expense, paid, type, installments,
         currency, account_id, merchant_name, category_id, created_at, updated_at)
       select gen_random_uuid(), $1, null, 100 + g, date '2025-01-01' + (g % 365), 'Outra ' || g, g % 3 <> 0, true, 'FIXED', 1,
         'BRL', $2, case when g % 3 = 0 then 'Mega Loja' else 'Loja Vizinha' end, $3, now(), now()
       from generate_series(1, 3000) g`,
      [tenant.userId, account, MORADIA],
    );
    const othersBefore = await stack.sql<{ id: string; category_id: string; updated_at: Date }>(
      `select id, category_id, subcategory_id, updated_at from ledger.transactions
       where user_id = $1 and (merchant_name_normalized is distinct from 'mega loja' or not is_expense) order by id`,
      [tenant.userId],
    );

    const first = fixture.startWorker();
    const patching = tenant.api.patch(`/v1/categorization-rules/${rule.id}`, {
      category_id: MORADIA,
      subcategory_id: ALUGUEL,
      apply_to_existing: true,
    });
    const jobId = await recordedJobOf(stack, rule.id);

    const atKill = await waitFor(
      async () => {
        const current = await job(jobId);
        return current.progress >= 1 && current.progress <= 99 && current;
      },
      60_000,
      5,
    );
    first.kill('SIGKILL');
    await once(first, 'exit');
    expect(atKill.state).toBe('active');
    const [run] = await stack.sql<{ scanned: number; changed: number; total: number; finished_at: Date | null }>(
      'select scanned, changed, total, finished_at from ledger.recategorization_runs where job_id = $1',
      [jobId],
    );
    expect(run.total).toBe(MATCHING + 1);
    expect(run.finished_at).toBeNull();
    expect(run.scanned).toBeGreaterThan(0);
    expect(run.scanned).toBeLessThan(run.total);

    // the PATCH waited 5 s and answered the count still to be changed (the source changed in the PATCH itself)
    const response = await patching;
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      source_transaction_updated: true,
      updated_existing_count: MATCHING,
      job_id: jobId,
    });

    fixture.startWorker();
    const done = await waitFor(
      async () => {
        const current = await job(jobId);
        return current.state === 'completed' && current;
      },
      150_000,
      200,
    );
    expect(done).toEqual({ state: 'completed', progress: 100, result: { updated_count: MATCHING } });
    expect((await tenant.api.get(`/v1/jobs/${jobId}`)).body).toMatchObject({
      state: 'completed',
      progress: 100,
      result: { updated_count: MATCHING },
    });

    const [matching] = await stack.sql<{ total: string; recategorized: string }>(
      `select count(*) as total,
         count(*) filter (where category_id = $2 and subcategory_id = $3) as recategorized
       from ledger.transactions where user_id = $1 and merchant_name_normalized = 'mega loja' and is_expense`,
      [tenant.userId, MORADIA, ALUGUEL],
    );
    expect(Number(matching.total)).toBe(MATCHING + 1);
    expect(Number(matching.recategorized)).toBe(MATCHING + 1);
    expect((await categoriesOf(stack, [sourceId]))[sourceId]).toEqual({
      category_id: MORADIA,
      subcategory_id: ALUGUEL,
    });
    const othersAfter = await stack.sql(
      `select id, category_id, subcategory_id, updated_at from ledger.transactions
       where user_id = $1 and (merchant_name_normalized is distinct from 'mega loja' or not is_expense) order by id`,
      [tenant.userId],
    );
    expect(othersAfter).toEqual(othersBefore);

    // every changed row went out in exactly one batch event, none twice across the crash
    expect(await recategorizedInEvents(stack, tenant.userId, MORADIA)).toEqual({
      items: MATCHING + 1,
      distinctIds: MATCHING + 1,
    });
  }, 240_000);
});
