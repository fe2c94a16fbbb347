import type { CallerContext } from '@finance/shared/context/signed-context';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { createBackgroundJob, updateBackgroundJob, waitForBackgroundJob } from '../src/domain/jobs/background-jobs.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /v1/jobs/{id}: background jobs of a context', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let ctx: CallerContext;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    ctx = { userId: tenant.userId, profileId: null, business: false, keyId: null };
  });
  afterAll(() => stack?.stop());

  const em = () => stack.service('ledger').orm.em.fork();

  it('when a job is created and reported on, then GET shows every field as it moves', async () => {
    const id = await em().transactional((tx) => createBackgroundJob(tx, ctx, 'IMPORT'));
    const waiting = await tenant.readOnly.get(`/v1/jobs/${id}`);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({
      id,
      kind: 'IMPORT',
      state: 'waiting',
      progress: 0,
      result: null,
      error: null,
      createdAt: expect.stringMatching(ISO),
      finishedAt: null,
    });
    await updateBackgroundJob(em(), id, { state: 'active', progress: 40 });
    expect((await tenant.api.get(`/v1/jobs/${id}`)).body).toMatchObject({ state: 'active', progress: 40 });
    await updateBackgroundJob(em(), id, { state: 'completed', progress: 100, result: { accounts: 2 } });
    const done = await tenant.api.get(`/v1/jobs/${id}`);
    expect(done.body).toMatchObject({ state: 'completed', progress: 100, result: { accounts: 2 }, error: null });
    expect(done.body.finishedAt).toMatch(ISO);
  });

  it('when waiting for a job that finishes meanwhile, then the wait answers the finished job', async () => {
    const id = await em().transactional((tx) => createBackgroundJob(tx, ctx, 'IMPORT'));
    setTimeout(() => void updateBackgroundJob(em(), id, { state: 'failed', error: 'Falhou' }), 200);
    const job = await waitForBackgroundJob(em(), ctx, id, 5000);
    expect(job).toMatchObject({ state: 'failed', error: 'Falhou' });
    const pending = await em().transactional((tx) => createBackgroundJob(tx, ctx, 'IMPORT'));
    expect((await waitForBackgroundJob(em(), ctx, pending, 150)).state).toBe('waiting');
  });

  it('when another user or another context asks for the job, then 404', async () => {
    const id = await em().transactional((tx) => createBackgroundJob(tx, ctx, 'IMPORT'));
    const other = await stack.tenant();
    expect((await other.api.get(`/v1/jobs/${id}`)).status).toBe(404);
    const company = await stack.companyClient(tenant.userId);
    const response = await company.api.get(`/v1/jobs/${id}`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await tenant.api.get('/v1/jobs/not-a-uuid')).status).toBe(400);
  });
});
