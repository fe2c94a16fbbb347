import { ANA_CPF, authorizeInBrowser, syncedImport } from '../support/sandbox-bank.ts';
import { type Tenant, TestStack } from '../support/stack.ts';

/** The full connect flow against Banco Sandbox, through the gateway, as a client and the customer's browser would. */
describe('Open Finance: connecting Banco Sandbox', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let callbackPrefix: string;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true });
    tenant = await stack.tenant();
    callbackPrefix = `${stack.url}/v1/open-banking/callback`;
  });
  afterAll(() => stack?.stop());

  const synced = syncedImport;

  it('when a client connects, the customer authorises and the callback completes, then a year of accounts, card bills and investments is listed, and a second sync creates nothing', async () => {
    const institutions = await tenant.api.get('/v1/open-banking/institutions');
    expect(institutions.status).toBe(200);
    expect(institutions.body).toEqual({
      data: [{ id: 'banco-sandbox', name: 'Banco Sandbox', provider: 'open_finance' }],
      next_cursor: null,
    });

    const created = await tenant.api.post('/v1/open-banking/connections', {
      institution_id: 'banco-sandbox',
      cpf: ANA_CPF,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      institution_id: 'banco-sandbox',
      institution: 'Banco Sandbox',
      status: 'AWAITING_AUTHORISATION',
      authorization_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/auth\?.*request_uri=/),
      consent_expires_at: expect.any(String),
      last_synced_at: null,
    });
    const id = created.body.id;
    const sandbox = stack.sandbox as NonNullable<TestStack['sandbox']>;
    const consentOf = async () => (await sandbox.consents()).at(-1);
    expect(await consentOf()).toMatchObject({ status: 'AWAITING_AUTHORISATION', cpf: ANA_CPF });

    const callback = await authorizeInBrowser(created.body.authorization_url, callbackPrefix);
    expect(new URL(callback).searchParams.get('response')).toEqual(expect.any(String));
    const answered = await stack.client().request('GET', callback.slice(stack.url.length));
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ connection_id: id, status: 'ACTIVE', message: expect.any(String) });
    expect((await consentOf())?.status).toBe('AUTHORISED');

    const { connection, job } = await synced(tenant.api, id);
    expect(job).toMatchObject({ state: 'completed', error: null });
    expect(connection).toMatchObject({ status: 'ACTIVE', authorization_url: null, last_sync_error: null });
    expect(job.result).toMatchObject({
      connection_id: id,
      accounts: { received: 1, created: 1 },
      credit_cards: { received: 1, created: 1 },
      investments: { received: 3, snapshots: 3 },
    });
    expect(job.result.transactions.created).toBeGreaterThan(150);

    const accounts = (await tenant.api.get('/v1/accounts')).body;
    expect(accounts.data ?? accounts).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Banco Sandbox 0012345678' })]),
    );
    const cards = (await tenant.api.get('/v1/credit-cards')).body;
    expect(JSON.stringify(cards)).toContain('Sandbox Platinum');

    // the refresh token is stored sealed, never as the institution issued it
    const [stored] = await stack.sql<{
      refresh_token: string;
      authorization_secret: string | null;
      state_hash: string | null;
    }>('select refresh_token, authorization_secret, state_hash from ledger.connections where id = $1', [id]);
    expect(stored.refresh_token).toMatch(/^v1\.dev\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.authorization_secret).toBeNull();
    expect(stored.state_hash).toBeNull();

    // a second sync: nothing new
    const first = connection.last_import_job_id;
    expect((await tenant.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const again = await synced(tenant.api, id, first);
    expect(again.job.result.transactions.created).toBe(0);
    expect(again.job.result.accounts.created).toBe(0);
  });
});
