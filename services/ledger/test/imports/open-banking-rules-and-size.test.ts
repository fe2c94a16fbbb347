import { importAndWait } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';

const tx = (externalId: string, merchant: string, extra: Record<string, unknown> = {}) => ({
  external_id: externalId,
  account_external_id: 'acc-1',
  amount: 2500,
  date: '2026-02-01',
  is_expense: true,
  title: merchant,
  merchant_name: merchant,
  ...extra,
});

const body = (transactions: unknown[]) => ({
  connection: { id: 'conn-r', institution: 'Banco Exemplo' },
  accounts: [{ external_id: 'acc-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: null, balance: 0 }],
  transactions,
});

describe('open-banking imports: rules on new transactions, and the 10 MiB body', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  it('when an enabled rule matches, then later imports arrive categorized and other merchants do not', async () => {
    const { job: first } = await importAndWait(tenant.api, body([tx('t-1', 'Padaria São João')]));
    expect(first.state).toBe('completed');
    const [source] = await stack.sql<{ id: string }>("select id from ledger.transactions where external_id = 't-1'");
    const [category] = await stack.sql<{ id: string }>(
      'select id from ledger.categories where user_id is null order by name limit 1',
    );
    const rule = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: source.id,
      category_id: category.id,
      match_fields: ['merchant_name'],
    });
    expect(rule.status).toBe(201);

    const { job: second } = await importAndWait(
      tenant.api,
      body([tx('t-1', 'Padaria São João'), tx('t-2', 'PADARIA SAO JOAO'), tx('t-3', 'Farmácia Central')]),
    );
    expect(second.result.transactions).toMatchObject({ created: 2, categorized: 1 });
    const rows = await stack.sql<{ external_id: string; category_id: string | null }>(
      "select external_id, category_id from ledger.transactions where external_id in ('t-2', 't-3') order by external_id",
    );
    expect(rows).toEqual([
      { external_id: 't-2', category_id: category.id },
      { external_id: 't-3', category_id: null },
    ]);
  });

  it('when the body is over 1 MiB but under 10 MiB, then it is accepted; over 10 MiB is 413 and nothing is written', async () => {
    const description = 'x'.repeat(900);
    const many = Array.from({ length: 1500 }, (_, i) => tx(`big-${i}`, 'Loja', { description }));
    const { job } = await importAndWait(tenant.api, body(many));
    expect(job).toMatchObject({ state: 'completed', result: { transactions: { created: 1500 } } });

    const before = await stack.sql('select count(*) from ledger.background_jobs');
    const huge = Array.from({ length: 12_000 }, (_, i) => tx(`huge-${i}`, 'Loja', { description }));
    const response = await tenant.api.post('/v1/open-banking/imports', body(huge));
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect(await stack.sql('select count(*) from ledger.background_jobs')).toEqual(before);
  });
});
