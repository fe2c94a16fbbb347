import { randomUUID } from 'node:crypto';
import { importCompleted } from '../../../../test/support/imports.ts';
import { merchantTransaction } from '../../../../test/support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { newAccount } from '../../../../test/support/transactions.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';

const MERCHANT = 'Supermercado Central';

describe('rules that split, and splits kept by imports', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;
  let food: string;
  let cleaning: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    account = await newAccount(tenant.api);
    const category = async (name: string) =>
      (await tenant.api.post('/v1/categories', { name, is_expense: true })).body.id as string;
    [food, cleaning] = [await category('Comida'), await category('Limpeza')];
  });
  afterAll(() => stack?.stop());

  const partsOf = async (id: string) =>
    (await tenant.api.get(`/v1/transactions/${id}/splits`)).body.parts.map(
      (part: { amount: number; category_id: string }) => [part.amount, part.category_id],
    );
  const withAmount = async (amount: number) => {
    const id = await merchantTransaction(stack, tenant.api, { accountId: account, merchantName: MERCHANT });
    await stack.sql('update ledger.transactions set amount = $2 where id = $1', [id, amount]);
    return id;
  };

  it('when a rule splits 70/30, then its source, its history and what an import brings are split with the leftover cent to the first part', async () => {
    const source = await withAmount(1_001);
    const history = await withAmount(333);
    const tiny = await withAmount(1);
    const invalid = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: source,
      category_id: food,
      splits: [
        { percentage: 70, category_id: food },
        { percentage: 29.99, category_id: cleaning },
      ],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual([
      { field: 'splits', message: 'as porcentagens das partes devem somar exatamente 100' },
    ]);
    const created = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: source,
      category_id: food,
      match_fields: ['merchant_name'],
      splits: [
        { percentage: 70, category_id: food },
        { percentage: 30, category_id: cleaning },
      ],
      apply_to_existing: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.rule.splits).toEqual([
      { percentage: 70, category_id: food, subcategory_id: null },
      { percentage: 30, category_id: cleaning, subcategory_id: null },
    ]);
    expect(created.body.source_transaction_updated).toBe(true);
    // 1001 × 70 % = 700.7 and 300.3: floors 700 + 300, the leftover cent to the first part
    expect(await partsOf(source)).toEqual([
      [701, food],
      [300, cleaning],
    ]);
    await waitFor(
      async () => (await tenant.api.get(`/v1/jobs/${created.body.job_id}`)).body.state === 'completed',
      20_000,
    );
    // 333: 233.1 and 99.9 → 233 + 99, one cent left for the first part
    expect(await partsOf(history)).toEqual([
      [234, food],
      [99, cleaning],
    ]);
    // one cent cannot be split in two: categorized, not split
    expect(await partsOf(tiny)).toEqual([]);
    expect((await tenant.api.get(`/v1/transactions/${tiny}`)).body.category_id).toBe(food);

    const connection = randomUUID();
    await importCompleted(tenant.api, {
      connection: { id: connection, institution: 'Banco' },
      accounts: [{ external_id: 'c', name: 'Banco', type: 'PERSONAL_BANK', subtype: null, balance: 0 }],
      transactions: [
        {
          external_id: 'compra-1',
          account_external_id: 'c',
          amount: 4_999,
          date: '2026-03-03',
          is_expense: true,
          title: 'Compra',
          merchant_name: MERCHANT,
        },
      ],
    });
    const [imported] = await stack.sql<{ id: string }>(
      "select id from ledger.transactions where external_id = 'compra-1' and context_id = $1",
      [tenant.userId],
    );
    // 4999: 3499.3 and 1499.7 → 3499 + 1499, the leftover cent to the first
    expect(await partsOf(imported.id)).toEqual([
      [3_500, food],
      [1_499, cleaning],
    ]);
  });

  it('when an imported entry the user split comes again, then the split stays; when the bank changes its amount, then the parts follow it', async () => {
    const connection = randomUUID();
    const payload = (amount: number, title = 'Mercado') => ({
      connection: { id: connection, institution: 'Banco' },
      accounts: [{ external_id: 'a', name: 'Conta do banco', type: 'PERSONAL_BANK', subtype: null, balance: 0 }],
      transactions: [
        {
          external_id: 'mercado-1',
          account_external_id: 'a',
          amount,
          date: '2026-04-02',
          is_expense: true,
          title,
        },
      ],
    });
    await importCompleted(tenant.api, payload(9_000));
    const [entry] = await stack.sql<{ id: string }>(
      "select id from ledger.transactions where external_id = 'mercado-1' and context_id = $1",
      [tenant.userId],
    );
    const split = await tenant.api.put(`/v1/transactions/${entry.id}/splits`, {
      parts: [
        { amount: 6_000, category_id: food },
        { amount: 3_000, category_id: cleaning },
      ],
    });
    expect(split.status).toBe(200);
    const again = await importCompleted(tenant.api, payload(9_000, 'MERCADO LTDA'));
    expect(again.result.transactions).toMatchObject({ received: 1, updated: 1 });
    expect(await partsOf(entry.id)).toEqual([
      [6_000, food],
      [3_000, cleaning],
    ]);
    await importCompleted(tenant.api, payload(10_001));
    expect(await partsOf(entry.id)).toEqual([
      [6_668, food],
      [3_333, cleaning],
    ]);
    const [event] = await stack.sql<{ payload: any }>(
      `select payload from ledger.outbox_events where type = 'transaction.changed' and payload->'data'->>'change' = 'updated'
        and payload::text like $1 order by created_at desc limit 1`,
      [`%${entry.id}%`],
    );
    const item = event.payload.data.transactions.find((row: { id: string }) => row.id === entry.id);
    expect(item).toMatchObject({ amount: 10_001 });
    expect(item.splits.map((part: { amount: number }) => part.amount)).toEqual([6_668, 3_333]);
  });
});
