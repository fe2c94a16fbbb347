import type { ApiClient } from '../../../../test/support/api-client.ts';
import { importCompleted } from '../../../../test/support/imports.ts';
import { categoriesOf } from '../../../../test/support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const SUPERMERCADO = '5c000000-0000-4000-8000-000100000001';
const MORADIA = 'c0000000-0000-4000-8000-000000000002';

const item = (externalId: string, merchant: string | null, extra: Record<string, unknown> = {}) => ({
  external_id: externalId,
  account_external_id: 'acc-1',
  amount: 4590,
  date: '2026-02-10',
  is_expense: true,
  title: merchant ?? 'Sem estabelecimento',
  ...(merchant ? { merchant_name: merchant } : {}),
  ...extra,
});

const payload = (connection: string, transactions: unknown[]) => ({
  connection: { id: connection, institution: 'Banco Exemplo' },
  accounts: [{ external_id: 'acc-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: null, balance: 0 }],
  credit_cards: [
    { external_id: 'card-1', name: 'Cartão', account_external_id: 'acc-1', closing_day: 5, due_day: 12, limit: 500000 },
  ],
  transactions,
});

describe('categorization rules on imported transactions (issue 6, acceptance 1)', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let company: { profileId: string; api: ApiClient };

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    company = await stack.companyClient(tenant.userId);
  });
  afterAll(() => stack?.stop());

  const idsOf = async (userId: string, profileId: string | null, externalIds: string[]) => {
    const rows = await stack.sql<{ id: string; external_id: string }>(
      `select id, external_id from ledger.transactions
       where user_id = $1 and profile_id is not distinct from $2 and external_id = any($3::text[])`,
      [userId, profileId, externalIds],
    );
    return Object.fromEntries(rows.map((row) => [row.external_id, row.id]));
  };

  it('when a rule from an imported transaction is patched with apply_to_existing, then exactly the matching history and later imports are recategorized', async () => {
    const history = [
      item('h-1', 'Supermercado Pão de Açúcar', { merchant_cnpj: '47.508.411/0001-56' }),
      item('h-2', 'SUPERMERCADO PAO DE ACUCAR'),
      item('h-3', '  supermercado  pão de açúcar '),
      item('h-4', 'Supermercado Pão de Açúcar', { account_external_id: undefined, credit_card_external_id: 'card-1' }),
      item('o-1', 'Supermercado Extra'),
      item('o-2', 'Supermercado Pão de Açúcar', { is_expense: false, title: 'Estorno' }),
      item('o-3', null),
    ];
    await importCompleted(tenant.api, payload('conn-a', history));
    await importCompleted(company.api, payload('conn-b', history));
    const mine = await idsOf(
      tenant.userId,
      null,
      history.map((h) => h.external_id),
    );
    const theirs = await idsOf(
      tenant.userId,
      company.profileId,
      history.map((h) => h.external_id),
    );

    const created = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: mine['h-4'],
      category_id: ALIMENTACAO,
      match_fields: ['merchant_name'],
    });
    expect(created.status).toBe(201);
    expect(created.body.rule).toMatchObject({
      source_kind: 'CREDIT_CARD',
      source_transaction_id: mine['h-4'],
      available_criteria: [
        { field: 'merchant_name', normalized: 'supermercado pao de acucar', value: 'Supermercado Pão de Açúcar' },
      ],
    });
    const [card] = await stack.sql<{ credit_card_id: string }>(
      'select credit_card_id from ledger.transactions where id = $1',
      [mine['h-4']],
    );
    expect(created.body.rule.source_id).toBe(card.credit_card_id);

    const untouchedIds = [mine['o-1'], mine['o-2'], mine['o-3'], ...Object.values(theirs)];
    const untouchedBefore = await categoriesOf(stack, untouchedIds);
    const patched = await tenant.api.patch(`/v1/categorization-rules/${created.body.rule.id}`, {
      category_id: MORADIA,
      apply_to_existing: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ source_transaction_updated: true, updated_existing_count: 3 });
    const matching = [mine['h-1'], mine['h-2'], mine['h-3'], mine['h-4']];
    expect(await categoriesOf(stack, matching)).toEqual(
      Object.fromEntries(matching.map((id) => [id, { category_id: MORADIA, subcategory_id: null }])),
    );
    expect(await categoriesOf(stack, untouchedIds)).toEqual(untouchedBefore);

    // a later import: the new matching transaction arrives in the rule's category, the others do not
    await tenant.api.patch(`/v1/categorization-rules/${created.body.rule.id}`, {
      category_id: ALIMENTACAO,
      subcategory_id: SUPERMERCADO,
    });
    await importCompleted(
      tenant.api,
      payload('conn-a', [...history, item('n-1', 'Supermercado Pão de Açúcar'), item('n-2', 'Padaria')]),
    );
    const later = await idsOf(tenant.userId, null, ['n-1', 'n-2']);
    expect(await categoriesOf(stack, [later['n-1'], later['n-2']])).toEqual({
      [later['n-1']]: { category_id: ALIMENTACAO, subcategory_id: SUPERMERCADO },
      [later['n-2']]: { category_id: null, subcategory_id: null },
    });
    // re-importing the history changed nothing it already had
    expect(await categoriesOf(stack, [mine['h-1']])).toEqual({
      [mine['h-1']]: { category_id: MORADIA, subcategory_id: null },
    });
  });
});
