import { MAX_CHANGED_PER_EVENT } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  megaLojaRule,
  recategorizationEvents,
  recategorizedInEvents,
  recordedJobOf,
} from '../../../../test/support/merchant-transactions.ts';
import { TestStack } from '../../../../test/support/stack.ts';
import { recategorizeHistory } from '../../src/domain/rules/recategorize-history.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const MORADIA = 'c0000000-0000-4000-8000-000000000002';
const ALUGUEL = '5c000000-0000-4000-8000-000200000001';
const MATCHING = 12_000;
const LANES = 3;
const RUNNERS = 4;

describe('recategorization in lanes, run by several workers at once', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // no worker in the stack: the test runs the job itself, several times at once
    stack = await TestStack.start({ serviceEnv: { ledger: { ROLE: 'api', RECATEGORIZATION_LANES: String(LANES) } } });
  });
  afterAll(() => stack?.stop());

  const em = () => stack.service('ledger').runtime.orm.em.fork() as EntityManager;

  /**
   * A tenant with MATCHING rows of one merchant and 3,000 others, its rule, and the PATCH applying the rule to
   * them (still waiting on its job, which no worker runs) once the job is recorded.
   */
  async function recordedJob() {
    const tenant = await stack.tenant();
    const { accountId: account, rule } = await megaLojaRule(stack, tenant, ALIMENTACAO);
    await stack.sql(
      `insert into ledger.transactions (id, user_id, profile_id, amount, date, title, is_expense, paid, type, installments,
         currency, account_id, merchant_name, created_at, updated_at)
       select gen_random_uuid(), $1, null, 100 + g, date '2025-01-01' + (g % 365), 'Compra ' || g, g % 7 <> 0 or g <= $3,
         true, 'FIXED', 1, 'BRL', $2, case when g <= $3 then 'MEGA LOJA' else 'Loja Vizinha' end, now(), now()
       from generate_series(1, $3 + 3000) g`,
      [tenant.userId, account, MATCHING],
    );
    const othersBefore = await stack.sql(
      `select id, category_id, subcategory_id, updated_at from ledger.transactions
       where user_id = $1 and merchant_name_normalized is distinct from 'mega loja' order by id`,
      [tenant.userId],
    );
    const patching = tenant.api.patch(`/v1/categorization-rules/${rule.id}`, {
      category_id: MORADIA,
      subcategory_id: ALUGUEL,
      apply_to_existing: true,
    });
    const jobId = await recordedJobOf(stack, rule.id);
    return { tenant, othersBefore, patching, jobId };
  }

  const recategorized = async (userId: string) => {
    const [matching] = await stack.sql<{ total: string; recategorized: string }>(
      `select count(*) as total, count(*) filter (where category_id = $2 and subcategory_id = $3) as recategorized
       from ledger.transactions where user_id = $1 and merchant_name_normalized = 'mega loja' and is_expense`,
      [userId, MORADIA, ALUGUEL],
    );
    return { total: Number(matching.total), recategorized: Number(matching.recategorized) };
  };

  it('when one job is run by four runners at once, then every match changes once, in one event each, with one rule.applied and an exact count', async () => {
    const { tenant, othersBefore, patching, jobId } = await recordedJob();

    // the PATCH split the matches into LANES ranges of about the same count
    const lanes = await stack.sql<{ lane: number; matches: string }>(
      `select l.lane, (select count(*) from ledger.transactions t
         where t.user_id = $2 and t.merchant_name_normalized = 'mega loja' and t.is_expense
           and t.id > coalesce(l.cursor_id, '00000000-0000-0000-0000-000000000000')
           and (l.upper_id is null or t.id <= l.upper_id)) as matches
       from ledger.recategorization_lanes l where l.job_id = $1 order by l.lane`,
      [jobId, tenant.userId],
    );
    expect(lanes.map((lane) => lane.lane)).toEqual([0, 1, 2]);
    expect(lanes.reduce((sum, lane) => sum + Number(lane.matches), 0)).toBe(MATCHING + 1);
    for (const lane of lanes) expect(Math.abs(Number(lane.matches) - (MATCHING + 1) / LANES)).toBeLessThanOrEqual(2);

    const results = await Promise.all(
      Array.from({ length: RUNNERS }, () => recategorizeHistory(em(), jobId, { batchSize: 1_000 })),
    );
    // each runner returns once every lane is done: the run's exact count
    expect(results).toEqual(Array.from({ length: RUNNERS }, () => ({ updated_count: MATCHING })));

    const response = await patching;
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ updated_existing_count: MATCHING, job_id: jobId });
    expect((await tenant.api.get(`/v1/jobs/${jobId}`)).body).toMatchObject({
      state: 'completed',
      progress: 100,
      result: { updated_count: MATCHING },
    });
    const [run] = await stack.sql<{ total: number; scanned: number; changed: number; finished_at: Date | null }>(
      'select total, scanned, changed, finished_at from ledger.recategorization_runs where job_id = $1',
      [jobId],
    );
    expect(run).toMatchObject({ total: MATCHING + 1, scanned: MATCHING + 1, changed: MATCHING });
    expect(run.finished_at).not.toBeNull();
    const unfinished = await stack.sql(
      'select lane from ledger.recategorization_lanes where job_id = $1 and finished_at is null',
      [jobId],
    );
    expect(unfinished).toEqual([]);

    expect(await recategorized(tenant.userId)).toEqual({ total: MATCHING + 1, recategorized: MATCHING + 1 });
    const othersAfter = await stack.sql(
      `select id, category_id, subcategory_id, updated_at from ledger.transactions
       where user_id = $1 and merchant_name_normalized is distinct from 'mega loja' order by id`,
      [tenant.userId],
    );
    expect(othersAfter).toEqual(othersBefore);

    // every changed row went out in exactly one event (the source in the PATCH's own), none twice; the rule's end, once
    expect(await recategorizedInEvents(stack, tenant.userId, MORADIA)).toEqual({
      items: MATCHING + 1,
      distinctIds: MATCHING + 1,
    });
    // a batch of 1,000 changed rows is written as two events of MAX_CHANGED_PER_EVENT, each under its own id
    const written = await recategorizationEvents(stack, tenant.userId, MORADIA);
    expect(written.largest).toBe(MAX_CHANGED_PER_EVENT);
    expect(written.events).toBeGreaterThanOrEqual(MATCHING / MAX_CHANGED_PER_EVENT);
    expect(written.misnamed).toBe(0);
    const applied = await stack.sql<{ updated: number }>(
      `select (payload->'data'->>'updated')::int as updated from ledger.outbox_events
       where type = 'rule.applied' and payload->'data'->>'job_id' = $1`,
      [jobId],
    );
    expect(applied).toEqual([{ updated: MATCHING }]);
  }, 120_000);

  it('when one lane fails, then the runner fails only after the other lanes stopped, and a rerun finishes the job exactly', async () => {
    const { tenant, patching, jobId } = await recordedJob();
    // the database refuses to move lane 1's cursor: that lane's first batch rolls back and its walk fails
    await stack.sql(`create function ledger.refuse_lane() returns trigger language plpgsql as $$
      begin raise exception 'lane refused'; end $$`);
    await stack.sql(`create trigger refuse_lane before update on ledger.recategorization_lanes for each row
      when (new.job_id = '${jobId}' and new.lane = 1) execute function ledger.refuse_lane()`);
    try {
      await expect(recategorizeHistory(em(), jobId, { batchSize: 1_000 })).rejects.toThrow('lane refused');
      // lanes 0 and 2 walked to their ends before the runner answered; lane 1 moved nothing
      const lanes = await stack.sql<{ lane: number; finished: boolean }>(
        `select lane, finished_at is not null as finished from ledger.recategorization_lanes
         where job_id = $1 order by lane`,
        [jobId],
      );
      expect(lanes).toEqual([
        { lane: 0, finished: true },
        { lane: 1, finished: false },
        { lane: 2, finished: true },
      ]);
      const [job] = await stack.sql<{ state: string }>('select state from ledger.background_jobs where id = $1', [
        jobId,
      ]);
      expect(job.state).toBe('active');
    } finally {
      await stack.sql('drop trigger refuse_lane on ledger.recategorization_lanes');
      await stack.sql('drop function ledger.refuse_lane()');
    }

    expect(await recategorizeHistory(em(), jobId, { batchSize: 1_000 })).toEqual({ updated_count: MATCHING });
    expect((await patching).body).toMatchObject({ updated_existing_count: MATCHING, job_id: jobId });
    expect(await recategorized(tenant.userId)).toEqual({ total: MATCHING + 1, recategorized: MATCHING + 1 });
    const [run] = await stack.sql<{ scanned: number; changed: number }>(
      'select scanned, changed from ledger.recategorization_runs where job_id = $1',
      [jobId],
    );
    expect(run).toEqual({ scanned: MATCHING + 1, changed: MATCHING });
  }, 120_000);
});
