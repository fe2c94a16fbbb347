import { QUEUES } from '@finance/shared/queue/catalogue';
import { TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

const SECRET = 'admin-secret-for-tests-0123456789';
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('queue dashboard: /admin/queues behind ADMIN_SECRET', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // api role: no stack worker competes with this file's own probe worker
    stack = await TestStack.start({ env: { ADMIN_SECRET: SECRET, ROLE: 'api' } });
  });
  afterAll(() => stack?.stop());

  const get = (path: string, authorization?: string) =>
    fetch(`${stack.url}${path}`, { headers: authorization ? { authorization } : {} });

  it.each([
    ['no credential', undefined],
    ['a wrong basic secret', basic('admin:wrong-secret-wrong-secret')],
    ['the right secret for another user', basic(`root:${SECRET}`)],
    ['a wrong bearer', 'Bearer nope'],
    ['a prefix of the secret', `Bearer ${SECRET.slice(0, -1)}`],
  ])('when called with %s, then 401 with a Basic challenge', async (_label, authorization) => {
    const response = await get('/admin/queues', authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await response.json()).toEqual({
      message: 'Credenciais de administrador inválidas',
      statusCode: 401,
      error: 'Unauthorized',
    });
  });

  it('when the secret is right, then the page renders under a CSP that allows it', async () => {
    const response = await get('/admin/queues', basic(`admin:${SECRET}`));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline'");
  });

  it('when an admin asks for a dashboard path that does not exist, then 404, and other /admin paths need an API key', async () => {
    const missing = await get('/admin/queues/api/nowhere', `Bearer ${SECRET}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const outside = await get('/admin/nowhere');
    expect(outside.status).toBe(401);
    expect(await outside.json()).toEqual({
      message: 'Credenciais de API inválidas',
      statusCode: 401,
      error: 'Unauthorized',
    });
  });

  it('when the queue API is asked with the bearer secret, then it lists every queue of the catalogue with the prefix', async () => {
    const response = await get('/admin/queues/api/queues', `Bearer ${SECRET}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { queues: Array<{ name: string }> };
    expect(body.queues.map((queue) => queue.name).sort()).toEqual(Object.values(QUEUES).sort());
  });

  it('when a job failed, then it is listed and retried from the dashboard API', async () => {
    const { Queue, Worker } = await import('bullmq');
    const options = {
      connection: { url: stack.env.REDIS_URL, maxRetriesPerRequest: null },
      prefix: stack.env.QUEUE_PREFIX,
    };
    const queue = new Queue(QUEUES.goalReminders, options);
    const worker = new Worker(
      QUEUES.goalReminders,
      async () => {
        throw new Error('falha de teste');
      },
      options,
    );
    const job = await queue.add('probe', { probe: true }, { attempts: 1 });
    await waitFor(async () => (await queue.getJobState(String(job.id))) === 'failed');
    await worker.close();
    const auth = `Bearer ${SECRET}`;
    const listed = await get(`/admin/queues/api/queues?activeQueue=${QUEUES.goalReminders}&status=failed`, auth);
    const failed = (
      (await listed.json()) as { queues: Array<{ name: string; jobs: Array<{ id: string }> }> }
    ).queues.find((item) => item.name === QUEUES.goalReminders);
    expect(failed?.jobs.map((item) => item.id)).toContain(job.id);
    const retry = await fetch(`${stack.url}/admin/queues/api/queues/${QUEUES.goalReminders}/${job.id}/retry`, {
      method: 'PUT',
      headers: { authorization: auth },
    });
    expect(retry.status).toBe(204);
    expect(await queue.getJobState(String(job.id))).toBe('waiting');
    await queue.obliterate({ force: true });
    await queue.close();
  });
});

describe('queue dashboard and gateway /metrics without ADMIN_SECRET', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it('when ADMIN_SECRET is unset, then /admin/queues is an unknown path: 401 without an API key, 404 with one', async () => {
    for (const authorization of [undefined, `Bearer ${SECRET}`]) {
      const response = await fetch(`${stack.url}/admin/queues/api/queues`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        message: 'Credenciais de API inválidas',
        statusCode: 401,
        error: 'Unauthorized',
      });
    }
    const tenant = await stack.tenant();
    const response = await tenant.api.get('/admin/queues/api/queues');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
  it('when ADMIN_SECRET is unset, then the gateway /metrics stays open (local development)', async () => {
    const response = await fetch(`${stack.url}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE http_request_duration_seconds ');
  });
});
