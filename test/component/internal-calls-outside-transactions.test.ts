import { CallInsideTransactionError } from '@finance/shared/http/internal-client';
import { billingFor } from '../../services/ledger/src/billing-client.ts';
import { type Tenant, TestStack } from '../support/stack.ts';

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

  const ledger = () => stack.services.find((service) => service.name === 'ledger')!;
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
});
