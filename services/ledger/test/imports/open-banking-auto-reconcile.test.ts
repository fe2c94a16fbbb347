import { importCompleted } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';

const MARCH = 'start_date=2026-03-01&end_date=2026-03-31';

const imported = (external_id: string, account: string, amount: number, date: string) => ({
  external_id,
  account_external_id: account,
  amount,
  date,
  is_expense: true,
  title: `Débito ${external_id}`,
});

const payload = (transactions: unknown[]) => ({
  connection: { id: 'conn-rec', institution: 'Banco Exemplo' },
  accounts: [
    { external_id: 'acc-1', name: 'Corrente', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 100_000 },
    { external_id: 'acc-2', name: 'Poupança', type: 'PERSONAL_BANK', subtype: 'SAVINGS_ACCOUNT', balance: 0 },
  ],
  transactions,
});

// tx-a settles the 10,000 forecast two days before it (not the one four days before); the others must not match
const BANK = [
  imported('tx-a', 'acc-1', 10_000, '2026-03-12'),
  imported('tx-b', 'acc-1', 5_000, '2026-03-07'),
  imported('tx-c', 'acc-1', 7_000, '2026-03-12'),
  imported('tx-d', 'acc-1', 2_100, '2026-03-12'),
];

describe('auto_reconcile_enabled: an import settles the matching forecast', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  /** A tenant whose connection accounts exist, with forecasts on them (unpaid, manual). */
  async function setUp() {
    const tenant = await stack.tenant();
    await importCompleted(tenant.api, payload([]));
    const accounts = await stack.sql<{ id: string; external_id: string }>(
      `select id, external_id from ledger.accounts where user_id = $1 and external_id is not null`,
      [tenant.userId],
    );
    const acc = (external: string) => accounts.find((row) => row.external_id === external)?.id as string;
    const forecast = async (account: string, amount: number, date: string, api = tenant.api) => {
      const response = await api.post('/v1/transactions', {
        title: 'Previsto',
        amount,
        date,
        is_expense: true,
        paid: false,
        account_id: account,
      });
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    const forecasts = {
      closest: await forecast(acc('acc-1'), 10_000, '2026-03-10'),
      farther: await forecast(acc('acc-1'), 10_000, '2026-03-08'),
      tooFar: await forecast(acc('acc-1'), 5_000, '2026-03-01'),
      otherAccount: await forecast(acc('acc-2'), 7_000, '2026-03-12'),
      otherAmount: await forecast(acc('acc-1'), 2_000, '2026-03-12'),
    };
    return { tenant, forecasts };
  }

  const summary = async (tenant: Tenant) => (await tenant.api.get(`/v1/reports/summary?${MARCH}`)).body;
  const reconciled = (tenant: Tenant, id: string) =>
    tenant.api.get(`/v1/transactions/${id}`).then((response) => response.body);
  const reconciledRows = (userId: string) =>
    stack.sql<{ id: string; reconciled_with_transaction_id: string }>(
      `select id, reconciled_with_transaction_id from ledger.transactions
       where user_id = $1 and reconciled_at is not null order by id`,
      [userId],
    );

  it('when the preference is off (the default), then nothing is reconciled and the forecast stays in to_pay', async () => {
    const { tenant } = await setUp();
    const before = await summary(tenant);
    expect(before.to_pay).toBe(10_000 + 10_000 + 5_000 + 7_000 + 2_000);
    await importCompleted(tenant.api, payload(BANK));
    expect(await reconciledRows(tenant.userId)).toEqual([]);
    expect((await summary(tenant)).to_pay).toBe(before.to_pay);
  });

  it('when the preference is on, then only the closest same-account, same-amount forecast within 5 days is settled, once', async () => {
    const { tenant, forecasts } = await setUp();
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
    const companyForecast = (
      await company.api.post('/v1/transactions', {
        title: 'Previsto',
        amount: 10_000,
        date: '2026-03-12',
        is_expense: true,
        paid: false,
        account_id: companyAccount,
      })
    ).body.id;
    expect((await tenant.api.put('/v2/personal-config', { auto_reconcile_enabled: true })).status).toBe(200);
    await company.api.put('/v2/personal-config', { auto_reconcile_enabled: true });
    const before = await summary(tenant);

    await importCompleted(tenant.api, payload(BANK));

    const [realA] = await stack.sql<{ id: string }>(
      `select id from ledger.transactions where user_id = $1 and external_id = 'tx-a'`,
      [tenant.userId],
    );
    const settled = await reconciled(tenant, forecasts.closest);
    expect(settled).toMatchObject({
      id: forecasts.closest,
      paid: false,
      reconciled_by_user_id: tenant.userId,
      reconciled_with_transaction_id: realA.id,
    });
    expect(Date.now() - Date.parse(settled.reconciled_at)).toBeLessThan(60_000);
    for (const id of [forecasts.farther, forecasts.tooFar, forecasts.otherAccount, forecasts.otherAmount]) {
      expect(await reconciled(tenant, id)).toMatchObject({
        reconciled_at: null,
        reconciled_by_user_id: null,
        reconciled_with_transaction_id: null,
      });
    }
    expect((await company.api.get(`/v1/transactions/${companyForecast}`)).body.reconciled_at).toBeNull();
    expect(await reconciledRows(tenant.userId)).toEqual([
      { id: forecasts.closest, reconciled_with_transaction_id: realA.id },
    ]);
    // the real entry replaces the forecast: to_pay loses it, expenses count it once
    const after = await summary(tenant);
    expect(after.to_pay).toBe(before.to_pay - 10_000);
    expect(after.expenses).toBe(before.expenses + 5_000 + 7_000 + 2_100);
    const events = await stack.sql<{ n: string }>(
      `select count(*)::text as n from ledger.outbox_events
       where type = 'transaction.changed' and payload::text like '%' || $1 || '%'`,
      [forecasts.closest],
    );
    expect(Number(events[0].n)).toBeGreaterThanOrEqual(2);

    await importCompleted(tenant.api, payload(BANK));
    expect(await reconciledRows(tenant.userId)).toEqual([
      { id: forecasts.closest, reconciled_with_transaction_id: realA.id },
    ]);
    expect(await summary(tenant)).toEqual(after);
  });

  it('when two identical entries arrive for two identical forecasts, then each forecast is settled by a different one', async () => {
    const tenant = await stack.tenant();
    await importCompleted(tenant.api, payload([]));
    const [acc] = await stack.sql<{ id: string }>(
      `select id from ledger.accounts where user_id = $1 and external_id = 'acc-1'`,
      [tenant.userId],
    );
    for (let i = 0; i < 2; i++) {
      await tenant.api.post('/v1/transactions', {
        title: 'Aluguel',
        amount: 3_000,
        date: '2026-03-05',
        is_expense: true,
        paid: false,
        account_id: acc.id,
      });
    }
    await tenant.api.put('/v2/personal-config', { auto_reconcile_enabled: true });
    await importCompleted(
      tenant.api,
      payload([imported('tx-1', 'acc-1', 3_000, '2026-03-05'), imported('tx-2', 'acc-1', 3_000, '2026-03-05')]),
    );
    const rows = await reconciledRows(tenant.userId);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.reconciled_with_transaction_id)).size).toBe(2);
    expect((await summary(tenant)).to_pay).toBe(0);
  });
});
