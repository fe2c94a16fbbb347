import { randomBytes } from 'node:crypto';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { decodeJwt, SignJWT } from 'jose';
import { BRUNO_CPF, connectSandbox, syncedImport } from '../../../../test/support/sandbox-bank.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';
import { WebhookReceiver } from '../../../../test/support/webhook-receiver.ts';

/**
 * Open Finance connections against Banco Sandbox, through the gateway: the consent's life at the institution,
 * the public callback's refusals, secrets at rest, concurrent syncs, and an institution that fails.
 */
describe('Open Finance: consent lifecycle, callback, secrets and failures', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  const sandbox = () => stack.sandbox as NonNullable<TestStack['sandbox']>;
  const row = async (id: string) =>
    (await stack.sql<Record<string, any>>('select * from ledger.connections where id = $1', [id]))[0];
  const consentOf = async (id: string) => {
    const { consent_id } = await row(id);
    return (await sandbox().consents()).find((consent) => consent.consentId === consent_id);
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    stack = await TestStack.start({
      sandbox: true,
      // a silent institution counts as down after 1.5 s (the default is 15 s)
      serviceEnv: { ledger: { OPEN_BANKING_TIMEOUT_MS: '1500' }, insights: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } },
    });
    tenant = await stack.tenant();
    const hook = await tenant.api.post('/v1/webhooks', {
      url: `${receiver.url}/hooks`,
      events: ['connection.revoked', 'connection.expired'],
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  it('when the customer revokes the consent at the institution, then the next sync makes the connection REVOKED with a notification and a webhook; renewing authorises the same connection again', async () => {
    const { id } = await connectSandbox(stack.url, tenant.api);
    const first = await syncedImport(tenant.api, id);
    await sandbox().revokeAtInstitution((await row(id)).consent_id);

    expect((await tenant.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const revoked = await waitFor(async () => {
      const connection = (await tenant.api.get(`/v1/open-banking/connections/${id}`)).body;
      return connection.status === 'REVOKED' && connection;
    });
    expect(revoked).toMatchObject({
      last_sync_error: 'O consentimento foi revogado na instituição',
      revoked_at: expect.any(String),
    });
    expect((await row(id)).refresh_token).toBeNull();
    const notification = await waitFor(async () =>
      (await tenant.api.get('/v1/notifications')).body.data.find(
        (n: { kind: string }) => n.kind === 'CONNECTION_REVOKED',
      ),
    );
    expect(notification).toMatchObject({
      title: 'Conexão com Banco Sandbox revogada',
      data: { connection_id: id, reason: 'CUSTOMER_MANUALLY_REVOKED' },
    });
    const delivered = await waitFor(async () =>
      receiver.on('/hooks').find((call) => call.rawBody.includes('connection.revoked')),
    );
    expect(JSON.parse(delivered.rawBody)).toMatchObject({
      type: 'connection.revoked',
      data: { connection_id: id, status: 'REVOKED', institution: 'Banco Sandbox', reason: 'CUSTOMER_MANUALLY_REVOKED' },
    });

    const renewed = await tenant.api.post(`/v1/open-banking/connections/${id}/renew`, {});
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ id, status: 'AWAITING_AUTHORISATION', authorization_url: expect.any(String) });
    const { authorizeInBrowser } = await import('../../../../test/support/sandbox-bank.ts');
    const callback = await authorizeInBrowser(renewed.body.authorization_url, `${stack.url}/v1/open-banking/callback`);
    expect((await fetch(callback)).status).toBe(200);
    const again = await syncedImport(tenant.api, id, first.connection.last_import_job_id);
    expect(again.connection).toMatchObject({ id, status: 'ACTIVE', revoked_at: null });
    expect(again.job.result.accounts).toMatchObject({ created: 0 });
  });

  it('when the institution expires the consent, then the connection becomes EXPIRED with a notification', async () => {
    const other = await stack.tenant();
    const { id } = await connectSandbox(stack.url, other.api, { cpf: BRUNO_CPF });
    await syncedImport(other.api, id);
    await sandbox().expire((await row(id)).consent_id);
    expect((await other.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    await waitFor(async () => (await other.api.get(`/v1/open-banking/connections/${id}`)).body.status === 'EXPIRED');
    const notification = await waitFor(async () =>
      (await other.api.get('/v1/notifications')).body.data.find(
        (n: { kind: string }) => n.kind === 'CONNECTION_EXPIRED',
      ),
    );
    expect(notification.data).toMatchObject({ connection_id: id, reason: 'CONSENT_EXPIRED' });
    expect((await other.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(409);
  });

  it('when the last account of a connection is deleted while the institution is down, then the consent is revoked there once it answers again', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    await syncedImport(owner.api, id);
    const [account] = await stack.sql<{ id: string }>('select id from ledger.accounts where connection_id = $1', [id]);
    sandbox().pause();
    try {
      expect((await owner.api.delete(`/v1/accounts/${account.id}`)).status).toBe(200);
      // the revocation job times out against the silent institution and is retried
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect((await row(id)).consent_revoked_at_institution).toBeNull();
    } finally {
      sandbox().resume();
    }
    const consent = await waitFor(async () => {
      const current = await consentOf(id);
      return current?.status === 'REJECTED' && current;
    }, 40_000);
    expect(consent.rejection).toEqual({ rejectedBy: 'TPP', reason: { code: 'CUSTOMER_MANUALLY_REVOKED' } });
    await waitFor(async () => (await row(id)).consent_revoked_at_institution !== null);
    expect((await owner.api.get(`/v1/open-banking/connections/${id}`)).body.status).toBe('REVOKED');
  });

  it('when DELETE revokes a connection, then the consent is revoked at the institution and the imported data stays', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const { job } = await syncedImport(owner.api, id);
    const deleted = await owner.api.delete(`/v1/open-banking/connections/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'REVOKED' });
    await waitFor(async () => (await consentOf(id))?.status === 'REJECTED');
    const [{ count }] = await stack.sql<{ count: string }>(
      'select count(*) from ledger.transactions where connection_id = $1 and deleted_at is null',
      [id],
    );
    expect(Number(count)).toBe(job.result.transactions.created);
  });

  it('when the callback gets a forged, unsigned or replayed response, or a plain code, then 400 and the connection is unchanged; another context cannot reach the connection', async () => {
    const { id, callback } = await connectSandbox(stack.url, tenant.api, { complete: false });
    const before = await row(id);
    const state = decodeJwt(new URL(callback).searchParams.get('response') as string).state as string;
    const forgedKey = new TextEncoder().encode(randomBytes(32).toString('hex'));
    const forged = await new SignJWT({ state, code: 'forjado', iss: 'x', aud: 'y' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(forgedKey);
    const attempts = [
      '/v1/open-banking/callback',
      `/v1/open-banking/callback?state=${state}&code=roubado`,
      `/v1/open-banking/callback?response=nao-e-um-jwt`,
      `/v1/open-banking/callback?response=${forged}`,
      `/v1/open-banking/callback?response=${await new SignJWT({ state: 'outro' }).setProtectedHeader({ alg: 'HS256' }).sign(forgedKey)}`,
    ];
    for (const path of attempts) {
      const answer = await stack.client().get(path);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
      expect(await row(id)).toEqual(before);
    }
    // another context: 404 on every route, nothing changes
    const intruder = await stack.tenant();
    for (const [method, path] of [
      ['GET', `/v1/open-banking/connections/${id}`],
      ['POST', `/v1/open-banking/connections/${id}/sync`],
      ['POST', `/v1/open-banking/connections/${id}/renew`],
      ['DELETE', `/v1/open-banking/connections/${id}`],
    ] as const) {
      const answer = await intruder.api.request(
        method,
        path,
        method === 'POST' && path.endsWith('renew') ? { body: {} } : {},
      );
      expect([path, answer.status]).toEqual([path, 404]);
    }
    expect(await row(id)).toEqual(before);

    const completed = await fetch(callback);
    expect(completed.status).toBe(200);
    // the first sync, which the completion queued, writes the row too: compare once it is done
    await syncedImport(tenant.api, id);
    const active = await row(id);
    expect(active.status).toBe('ACTIVE');
    const replay = await stack.client().get(callback.slice(stack.url.length));
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe('Autorização desconhecida, forjada ou já utilizada; nada foi alterado');
    expect(await row(id)).toEqual(active);
  });

  it('when tokens are stored, then they are ciphertext; after a key rotation the connection still syncs and its token is sealed again under the new key', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const first = await syncedImport(owner.api, id);
    const sealed = (await row(id)).refresh_token as string;
    expect(sealed).toMatch(/^v1\.dev\./);
    const answers = JSON.stringify([
      (await owner.api.get(`/v1/open-banking/connections/${id}`)).body,
      (await owner.api.get('/v1/open-banking/connections')).body,
    ]);
    expect(answers).not.toMatch(/refresh|v1\.dev\.|verifier|nonce/);

    const config = stack.ledger.runtime.config;
    const previous = config.OPEN_BANKING_ENCRYPTION_KEYS;
    config.OPEN_BANKING_ENCRYPTION_KEYS = `k2:${randomBytes(32).toString('base64')},${previous}`;
    try {
      expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
      const again = await syncedImport(owner.api, id, first.connection.last_import_job_id);
      expect(again.job.state).toBe('completed');
      const resealed = (await row(id)).refresh_token as string;
      expect(resealed).toMatch(/^v1\.k2\./);
      expect(resealed).not.toBe(sealed);
    } finally {
      config.OPEN_BANKING_ENCRYPTION_KEYS = previous;
    }
  });

  it('when two syncs of one connection run at once (with the first), then every entry is created once', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => owner.api.post(`/v1/open-banking/connections/${id}/sync`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202]);
    await syncedImport(owner.api, id);
    // every queued sync and its import has run: no job of the connection is waiting any more
    await waitFor(async () => {
      const [{ pending }] = await stack.sql<{ pending: string }>(
        `select count(*) as pending from ledger.background_jobs where state in ('waiting', 'active')`,
      );
      const [{ lease }] = await stack.sql<{ lease: Date | null }>(
        'select sync_lease_until as lease from ledger.connections where id = $1',
        [id],
      );
      return Number(pending) === 0 && lease === null;
    }, 60_000);
    const duplicates = await stack.sql(
      // one id may name several entries (two fees under one id): each once
      `select external_id, amount, count(*) from ledger.transactions where connection_id = $1
       group by external_id, amount having count(*) > 1`,
      [id],
    );
    expect(duplicates).toEqual([]);
    const [{ count }] = await stack.sql<{ count: string }>(
      'select count(*) from ledger.transactions where connection_id = $1',
      [id],
    );
    expect(Number(count)).toBeGreaterThan(150);
  });

  it('when the institution is unknown, answers garbage, fails or does not answer, then a clear error and no connection is written', async () => {
    const owner = await stack.tenant();
    const connections = async () => (await owner.api.get('/v1/open-banking/connections')).body.data;
    const unknown = await owner.api.post('/v1/open-banking/connections', { institution_id: 'banco-inexistente' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Instituição não encontrada', statusCode: 404, error: 'Not Found' });

    const cases = [
      {
        fault: { status: 200, times: 1, path: '/open-banking/consents', body: '<html>manutenção</html>' },
        status: 502,
      },
      { fault: { status: 503, times: 10, path: '/open-banking/consents' }, status: 502 },
      { fault: { status: 201, times: 1, path: '/open-banking/consents', delay_ms: 4000 }, status: 504 },
    ];
    for (const { fault, status } of cases) {
      await sandbox().fault(fault);
      const answer = await owner.api.post('/v1/open-banking/connections', { institution_id: 'banco-sandbox' });
      expect([fault, answer.status]).toEqual([fault, status]);
      expect(answer.body).toMatchObject({
        statusCode: status,
        message: expect.stringMatching(/instituição.*nada foi alterado/),
      });
      expect(JSON.stringify(answer.body)).not.toMatch(/html|manutenção|Error|at /);
      await sandbox().clearFaults();
    }
    expect(await connections()).toEqual([]);
  });

  it('when the institution answers 429 and 5xx during a sync, then the calls are retried and the sync completes', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const first = await syncedImport(owner.api, id);
    await sandbox().fault({ status: 429, times: 2, path: '/open-banking/accounts' });
    await sandbox().fault({ status: 500, times: 2, path: '/open-banking/resources' });
    expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const again = await syncedImport(owner.api, id, first.connection.last_import_job_id);
    expect(again.job.state).toBe('completed');
    expect(again.connection.last_sync_error).toBeNull();
  });

  it('when the scheduler runs, then it queues one sync of each ACTIVE connection not synced within the interval, and none of one synced since', async () => {
    const stale = await connectSandbox(stack.url, tenant.api, { cpf: BRUNO_CPF });
    const fresh = await connectSandbox(stack.url, tenant.api, { cpf: BRUNO_CPF });
    const staleFirst = await syncedImport(tenant.api, stale.id);
    const freshFirst = await syncedImport(tenant.api, fresh.id);
    await stack.sql(`update ledger.connections set last_synced_at = now() - interval '7 hours' where id = $1`, [
      stale.id,
    ]);

    const queue = stack.service('ledger').runtime.queues.get(QUEUES.openBankingSync);
    const run = await queue.add('open-banking.sync-all', {});
    await waitFor(async () => (await queue.getJob(run.id as string))?.finishedOn);
    const again = await syncedImport(tenant.api, stale.id, staleFirst.connection.last_import_job_id);
    expect(again.job.state).toBe('completed');
    expect((await row(fresh.id)).last_import_job_id).toBe(freshFirst.connection.last_import_job_id);
  });
});
