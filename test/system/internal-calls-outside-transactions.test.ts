import { CallInsideTransactionError } from '@finance/shared/http/internal-client';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { billingFor } from '../../services/ledger/src/billing-client.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

/** House rule 9: no service waits on another while it holds a database transaction. */
describe('internal client: refuses to call another service from inside an open transaction', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    await tenant.api.post('/v1/credit-cards', {
      name: 'Cartão',
      account_id: accountId,
      closing_date: 10,
      expiring_date: 17,
    });
  });
  afterAll(() => stack?.stop());

  const ledger = () => stack.ledger;
  const ctx = () => ({ userId: tenant.userId, profileId: null, business: false, keyId: null });

  it('when the ledger calls billing inside em.transactional, then the call is refused before it is sent', async () => {
    const billing = billingFor(ledger().runtime);
    const before = billing.http.calls;
    const attempt = ledger()
      .orm.em.fork()
      .transactional(async () => billing.linkedCards(ctx(), accountId));
    await expect(attempt).rejects.toBeInstanceOf(CallInsideTransactionError);
    expect(billing.http.calls).toBe(before);
  });

  it('when the same call is made after the transaction committed, then it goes through', async () => {
    const billing = billingFor(ledger().runtime);
    const em = ledger().orm.em.fork();
    const accounts = await em.transactional(async (tx) =>
      tx.getConnection().execute('select id from accounts where id = ?', [accountId]),
    );
    expect(accounts).toHaveLength(1);
    const linked = await billing.linkedCards(ctx(), accountId);
    expect(linked).toHaveLength(1);
  });

  it('when a nested async step inside the transaction makes the call, then it is refused too', async () => {
    const billing = billingFor(ledger().runtime);
    const deeper = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return billing.linkedCards(ctx(), accountId);
    };
    await expect(
      ledger()
        .orm.em.fork()
        .transactional(async () => deeper()),
    ).rejects.toBeInstanceOf(CallInsideTransactionError);
  });

  it('when an account with a card is deleted, then the move is recorded as an outbox job and billing moves the card after the commit', async () => {
    const doomed = (await tenant.api.post('/v1/accounts', { name: 'Vai sair', logo: '341' })).body.id;
    const card = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Segue',
        account_id: doomed,
        closing_date: 5,
        expiring_date: 12,
      })
    ).body;
    const deleted = await tenant.api.delete(`/v1/accounts/${doomed}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.movedCreditCards).toEqual([{ id: card.id, account_id: accountId }]);
    const recorded = await stack.sql<{ queue: string; payload: { to_account_id: string } }>(
      'select queue, payload from ledger.outbox_events where id = $1',
      [doomed],
    );
    expect(recorded).toEqual([
      expect.objectContaining({
        queue: QUEUES.cardMoves,
        payload: expect.objectContaining({ to_account_id: accountId }),
      }),
    ]);
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.account_id).toBe(accountId);
  });

  it('when the move-cards job runs for cards still on a deleted account, then billing moves them (the path after a failed direct call)', async () => {
    const source = (await tenant.api.post('/v1/accounts', { name: 'Origem', logo: '341' })).body.id;
    const card = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Fica',
        account_id: source,
        closing_date: 5,
        expiring_date: 12,
      })
    ).body;
    const queue = ledger().runtime.queues.get(QUEUES.cardMoves);
    const job = await queue.add('move-cards', {
      context: { user_id: tenant.userId, profile_id: null },
      from_account_id: source,
      to_account_id: accountId,
    });
    const done = await waitFor(async () => {
      const current = await queue.getJob(job.id as string);
      return current?.finishedOn ? current : undefined;
    });
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toEqual({ moved: 1 });
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.account_id).toBe(accountId);
  });
});
