import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_BATCH_JOB, QUEUES } from '@finance/shared/queue/catalogue';
import type { ApiClient } from '../../../../test/support/api-client.ts';
import { importAndWait } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';
import { revokeConsent } from '../../src/domain/open-banking/revoke-consent.ts';
import { openFinanceFor } from '../../src/open-finance.ts';

const connectionPayload = (id: string) => ({
  connection: { id, institution: 'Banco Exemplo' },
  accounts: [
    { external_id: 'acc-1', name: 'Conta corrente', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1000 },
    { external_id: 'acc-2', name: 'Poupança', type: 'PERSONAL_BANK', subtype: 'SAVINGS_ACCOUNT', balance: 2000 },
  ],
  transactions: [
    {
      external_id: 'tx-1',
      account_external_id: 'acc-1',
      amount: 500,
      date: '2026-01-05',
      is_expense: true,
      title: 'Café',
    },
  ],
});

describe('consent revocation: deleting the last account of a connection', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const connectionOf = async (api: ApiClient, externalId: string) =>
    (await api.get('/v1/open-banking/connections')).body.data.find(
      (c: { external_id: string }) => c.external_id === externalId,
    );
  const accountIds = (connectionId: string) =>
    stack.sql<{ id: string }>('select id from ledger.accounts where connection_id = $1 order by external_id', [
      connectionId,
    ]);
  // a connection of a JSON import has no consent at an institution: revoking it only marks it REVOKED
  const revocations = (connectionId: string) =>
    stack.sql(
      `select id, external_id, user_id, profile_id from ledger.connections where id = $1 and status = 'REVOKED'`,
      [connectionId],
    );

  const untilRevoked = (api: ApiClient, externalId: string) =>
    waitFor(async () => {
      const connection = await connectionOf(api, externalId);
      return connection.status === 'REVOKED' && connection;
    });

  it('when the last live account of a connection is deleted, then the consent is revoked once and the connection shows REVOKED', async () => {
    const { job } = await importAndWait(tenant.api, connectionPayload('conn-a'));
    expect(job.state).toBe('completed');
    const connectionId = job.result.connection_id;
    const [first, second] = await accountIds(connectionId);

    expect((await tenant.api.delete(`/v1/accounts/${first.id}`)).status).toBe(200);
    await sleep(800);
    expect(await connectionOf(tenant.api, 'conn-a')).toMatchObject({ status: 'ACTIVE', revoked_at: null });
    expect(await revocations(connectionId)).toEqual([]);

    expect((await tenant.api.delete(`/v1/accounts/${second.id}`)).status).toBe(200);
    const revoked = await untilRevoked(tenant.readOnly, 'conn-a');
    expect(revoked).toMatchObject({ id: connectionId, status: 'REVOKED', revoked_at: expect.any(String) });
    expect(await revocations(connectionId)).toEqual([
      expect.objectContaining({
        id: connectionId,
        user_id: tenant.userId,
        profile_id: null,
        external_id: 'conn-a',
      }),
    ]);
    expect((await tenant.api.get('/v1/open-banking/connections?status=REVOKED')).body.data).toHaveLength(1);

    // the job again, directly and through the queue: still one revocation, nothing else changes
    const ctx = { userId: tenant.userId, profileId: null, business: false, keyId: null };
    const em = stack.service('ledger').orm.em.fork();
    expect(await revokeConsent(em, ctx, connectionId, openFinanceFor(stack.ledger.runtime))).toBe('already-revoked');
    const event = await stack
      .service('ledger')
      .runtime.queues.get(QUEUES.consentRevocation)
      .add(EVENT_BATCH_JOB, {
        events: [
          {
            event_id: '01900000-0000-7000-8000-000000000001',
            type: 'connection.consent_revoke_requested',
            occurred_at: new Date().toISOString(),
            context: { user_id: tenant.userId, profile_id: null },
            data: { connection_id: connectionId },
          },
        ],
      });
    await waitFor(() => event.isCompleted());
    expect(await event.isCompleted()).toBe(true);
    expect(await revocations(connectionId)).toHaveLength(1);
    expect((await connectionOf(tenant.api, 'conn-a')).revoked_at).toBe(revoked.revoked_at);
  });

  it('when a revoked connection is imported again, then 409 and nothing is written', async () => {
    const before = await stack.sql('select count(*) from ledger.background_jobs');
    const response = await tenant.api.post('/v1/open-banking/imports', connectionPayload('conn-a'));
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(await stack.sql('select count(*) from ledger.background_jobs')).toEqual(before);
  });

  it('when a manual account or another context is involved, then no consent is touched', async () => {
    const { job } = await importAndWait(tenant.api, connectionPayload('conn-b'));
    const manual = await tenant.api.post('/v1/accounts', { name: 'Carteira', logo: '341' });
    expect((await tenant.api.delete(`/v1/accounts/${manual.body.id}`)).status).toBe(200);
    // another user cannot delete the connection's accounts
    const other = await stack.tenant();
    const [account] = await accountIds(job.result.connection_id);
    expect((await other.api.delete(`/v1/accounts/${account.id}`)).status).toBe(404);
    await sleep(500);
    expect(await connectionOf(tenant.api, 'conn-b')).toMatchObject({ status: 'ACTIVE' });
    expect(await revocations(job.result.connection_id)).toEqual([]);
    expect(
      await revokeConsent(
        stack.service('ledger').orm.em.fork(),
        { userId: other.userId, profileId: null, business: false, keyId: null },
        job.result.connection_id,
        openFinanceFor(stack.ledger.runtime),
      ),
    ).toBe('unknown');
    expect(
      await revokeConsent(
        stack.service('ledger').orm.em.fork(),
        { userId: tenant.userId, profileId: null, business: false, keyId: null },
        job.result.connection_id,
        openFinanceFor(stack.ledger.runtime),
      ),
    ).toBe('in-use');
    expect(await revocations(job.result.connection_id)).toEqual([]);
  });
});
