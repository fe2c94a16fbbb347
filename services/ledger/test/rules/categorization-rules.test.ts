import type { ApiClient } from '../../../../test/support/api-client.ts';
import { categoriesOf, merchantNameRule, merchantTransaction } from '../../../../test/support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';

// Until imports land in a test here, merchant data is set with SQL on transactions made through the API
// (see merchantTransaction): the public transaction endpoints never take merchant fields from a client.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const SUPERMERCADO = '5c000000-0000-4000-8000-000100000001';
const PADARIA = '5c000000-0000-4000-8000-000100000004';
const MORADIA = 'c0000000-0000-4000-8000-000000000002';
const ALUGUEL = '5c000000-0000-4000-8000-000200000001';
const RULE_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Regra de categorização não encontrada' };

describe('categorization rules through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let other: Tenant;
  let company: { profileId: string; api: ApiClient };
  let account: string;
  let otherAccount: string;
  let companyAccount: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    other = await stack.tenant();
    company = await stack.companyClient(tenant.userId);
    account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    otherAccount = (await other.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    companyAccount = (await company.api.post('/v1/accounts', { name: 'Conta PJ', logo: '341' })).body.id;
  });
  afterAll(() => stack?.stop());

  const countRules = async () =>
    Number((await stack.sql('select count(*) from ledger.categorization_rules where deleted_at is null'))[0].count);
  const source = (merchantName: string | null, merchantCnpj: string | null = null, isExpense = true) =>
    merchantTransaction(stack, tenant.api, { accountId: account, merchantName, merchantCnpj, isExpense });

  it('when a rule is created from a transaction with merchant data, then 201 with every field and the source is categorized', async () => {
    const sourceId = await source('  PADARIA São João ', '12.345.678/0001-90');
    const response = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: sourceId,
      category_id: ALIMENTACAO,
      subcategory_id: PADARIA,
      user_id: other.userId,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      rule: {
        id: expect.stringMatching(UUID),
        category_id: ALIMENTACAO,
        subcategory_id: PADARIA,
        enabled: true,
        is_expense: true,
        match_fields: ['merchant_name', 'merchant_cnpj'],
        source_id: account,
        source_kind: 'ACCOUNT',
        source_transaction_id: sourceId,
        available_criteria: [
          { field: 'merchant_name', normalized: 'padaria sao joao', value: '  PADARIA São João ' },
          { field: 'merchant_cnpj', normalized: '12345678000190', value: '12.345.678/0001-90' },
        ],
        fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        splits: null,
        profile_id: null,
        user_id: tenant.userId,
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      },
      source_transaction_updated: true,
      updated_existing_count: 0,
      job_id: null,
    });
    expect(await categoriesOf(stack, [sourceId])).toEqual({
      [sourceId]: { category_id: ALIMENTACAO, subcategory_id: PADARIA },
    });
    const [row] = await stack.sql('select * from ledger.categorization_rules where id = $1', [response.body.rule.id]);
    expect(row).toMatchObject({
      user_id: tenant.userId,
      profile_id: null,
      match_merchant_name: 'padaria sao joao',
      match_merchant_cnpj: '12345678000190',
      fingerprint: response.body.rule.fingerprint,
      deleted_at: null,
    });
    expect((await tenant.api.get(`/v1/categorization-rules/${response.body.rule.id}`)).body).toEqual(
      response.body.rule,
    );
  });

  it('when the same fingerprint is posted again, then 200 updates that rule instead of creating one', async () => {
    const first = await source('Mercado Azul');
    const created = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: first,
      category_id: ALIMENTACAO,
    });
    const second = await source('MERCADO AZÚL');
    const before = await countRules();
    const again = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: second,
      category_id: ALIMENTACAO,
      subcategory_id: SUPERMERCADO,
    });
    expect(again.status).toBe(200);
    expect(again.body.rule).toMatchObject({
      id: created.body.rule.id,
      fingerprint: created.body.rule.fingerprint,
      subcategory_id: SUPERMERCADO,
      source_transaction_id: second,
      available_criteria: [{ field: 'merchant_name', normalized: 'mercado azul', value: 'MERCADO AZÚL' }],
      createdAt: created.body.rule.createdAt,
    });
    expect(again.body.source_transaction_updated).toBe(true);
    expect(await countRules()).toBe(before);

    // the same values in another direction, context or field choice are another fingerprint
    const income = await source('Mercado Azul', null, false);
    const incomeRule = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: income,
      category_id: ALIMENTACAO,
    });
    expect(incomeRule.status).toBe(201);
    expect(incomeRule.body.rule.fingerprint).not.toBe(created.body.rule.fingerprint);
    const companySource = await merchantTransaction(stack, company.api, {
      accountId: companyAccount,
      merchantName: 'Mercado Azul',
    });
    const companyRule = await company.api.post('/v1/categorization-rules', {
      source_transaction_id: companySource,
      category_id: ALIMENTACAO,
    });
    expect(companyRule.status).toBe(201);
    expect(companyRule.body.rule).toMatchObject({ profile_id: company.profileId, user_id: tenant.userId });
    expect(companyRule.body.rule.fingerprint).not.toBe(created.body.rule.fingerprint);
  });

  it('when a rule is patched with apply_to_existing, then exactly the matching history is recategorized', async () => {
    const sourceId = await source('Posto Shell', '11.111.111/0001-11');
    const rule = await merchantNameRule(tenant.api, sourceId, ALIMENTACAO);
    expect(rule.match_fields).toEqual(['merchant_name']);
    const matching = [
      await source('posto shell'),
      await source(' POSTO   SHELL ', '22.222.222/0001-22'),
      await source('Pôsto Shéll'),
    ];
    const already = await merchantTransaction(stack, tenant.api, {
      accountId: account,
      merchantName: 'Posto Shell',
      categoryId: MORADIA,
    });
    await stack.sql('update ledger.transactions set subcategory_id = $2 where id = $1', [already, ALUGUEL]);
    const untouched = [
      await source('Posto Ipiranga'),
      await source(null, '11.111.111/0001-11'),
      await source('Posto Shell', null, false),
      await merchantTransaction(stack, other.api, { accountId: otherAccount, merchantName: 'Posto Shell' }),
      await merchantTransaction(stack, company.api, { accountId: companyAccount, merchantName: 'Posto Shell' }),
    ];
    const deleted = await source('Posto Shell');
    await tenant.api.delete(`/v1/transactions/${deleted}`);
    const untouchedBefore = await categoriesOf(stack, [...untouched, deleted]);

    const response = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, {
      category_id: MORADIA,
      subcategory_id: ALUGUEL,
      apply_to_existing: true,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      rule: { ...rule, category_id: MORADIA, subcategory_id: ALUGUEL, updatedAt: expect.stringMatching(TIMESTAMP) },
      source_transaction_updated: true,
      updated_existing_count: 3,
      job_id: expect.stringMatching(UUID),
    });
    const expected = { category_id: MORADIA, subcategory_id: ALUGUEL };
    expect(await categoriesOf(stack, [sourceId, ...matching, already])).toEqual(
      Object.fromEntries([sourceId, ...matching, already].map((id) => [id, expected])),
    );
    expect(await categoriesOf(stack, [...untouched, deleted])).toEqual(untouchedBefore);

    const job = await tenant.api.get(`/v1/jobs/${response.body.job_id}`);
    expect(job.body).toMatchObject({
      id: response.body.job_id,
      kind: 'RECATEGORIZATION',
      state: 'completed',
      progress: 100,
      result: { updated_count: 3 },
      error: null,
    });
    expect((await other.api.get(`/v1/jobs/${response.body.job_id}`)).status).toBe(404);
    const events = await stack.sql<{ payload: { data: { transactions: Array<{ id: string; category_id: string }> } } }>(
      `select payload from ledger.outbox_events where type = 'transaction.changed'
       and payload->'data'->>'change' = 'updated' and payload::jsonb->'data'->'transactions' @> $1::jsonb
       order by created_at, id`,
      [JSON.stringify([{ id: matching[0] }])],
    );
    expect(
      events
        .at(-1)
        ?.payload.data.transactions.map((t) => t.id)
        .sort(),
    ).toEqual([...matching].sort());
    // the batch's statement builds each item in SQL: the same shape and values as any other transaction.changed
    for (const item of events.at(-1)?.payload.data.transactions ?? []) {
      const shown = (await tenant.api.get(`/v1/transactions/${item.id}`)).body;
      expect(item).toEqual({
        id: shown.id,
        date: shown.date.slice(0, 10),
        amount: shown.amount,
        is_expense: shown.is_expense,
        category_id: MORADIA,
        subcategory_id: ALUGUEL,
        type: shown.type,
      });
    }

    // run again: the same category everywhere, nothing changes and the count says so
    const rerun = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, { apply_to_existing: true });
    expect(rerun.body).toMatchObject({ source_transaction_updated: false, updated_existing_count: 0 });
  });

  it('when a rule is patched, then only the fields sent change and null clears the subcategory', async () => {
    const rule = (
      await tenant.api.post('/v1/categorization-rules', {
        source_transaction_id: await source('Farmácia Pague Menos', '33.333.333/0001-33'),
        category_id: ALIMENTACAO,
        subcategory_id: SUPERMERCADO,
      })
    ).body.rule;
    const cleared = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, { subcategory_id: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      rule: { category_id: ALIMENTACAO, subcategory_id: null, enabled: true },
      source_transaction_updated: true,
      updated_existing_count: 0,
      job_id: null,
    });
    const moved = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, { subcategory_id: PADARIA });
    expect(moved.body.rule).toMatchObject({ category_id: ALIMENTACAO, subcategory_id: PADARIA });
    const recategorized = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, { category_id: MORADIA });
    expect(recategorized.body.rule).toMatchObject({ category_id: MORADIA, subcategory_id: null });
    const disabled = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, {
      enabled: false,
      match_fields: ['merchant_cnpj'],
    });
    expect(disabled.body).toMatchObject({
      rule: { enabled: false, match_fields: ['merchant_cnpj'] },
      source_transaction_updated: false,
    });
    expect(disabled.body.rule.fingerprint).not.toBe(rule.fingerprint);
    const [row] = await stack.sql(
      'select match_merchant_name, match_merchant_cnpj from ledger.categorization_rules where id = $1',
      [rule.id],
    );
    expect(row).toEqual({ match_merchant_name: null, match_merchant_cnpj: '33333333000133' });
  });

  it('when match_fields would give another live rule’s fingerprint, then 409 and nothing changes', async () => {
    const sourceId = await source('Loja X', '44.444.444/0001-44');
    const byName = (
      await tenant.api.post('/v1/categorization-rules', {
        source_transaction_id: sourceId,
        category_id: ALIMENTACAO,
        match_fields: ['merchant_name'],
      })
    ).body.rule;
    const both = (
      await tenant.api.post('/v1/categorization-rules', { source_transaction_id: sourceId, category_id: MORADIA })
    ).body.rule;
    const response = await tenant.api.patch(`/v1/categorization-rules/${both.id}`, { match_fields: ['merchant_name'] });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect((await tenant.api.get(`/v1/categorization-rules/${both.id}`)).body).toEqual(both);
    expect(byName.id).not.toBe(both.id);
  });

  it('when rules are listed, then the context’s live rules come in creation order, a page at a time', async () => {
    const listing = await company.api.get('/v1/categorization-rules?limit=1');
    expect(listing.status).toBe(200);
    expect(listing.body.data).toHaveLength(1);
    expect(listing.body.data[0].profile_id).toBe(company.profileId);
    expect(listing.body.next_cursor).toBeNull();

    const all: Array<{ id: string; user_id: string; profile_id: string | null }> = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: typeof all; next_cursor: string | null } } = await tenant.api.get(
        `/v1/categorization-rules?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      all.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(all.length).toBe(await countPersonalRules(tenant.userId));
    expect(all.map((rule) => rule.id)).toEqual([...all.map((rule) => rule.id)].sort());
    expect(all.every((rule) => rule.user_id === tenant.userId && rule.profile_id === null)).toBe(true);
    expect((await other.api.get('/v1/categorization-rules')).body).toEqual({ data: [], next_cursor: null });
    expect((await tenant.api.get('/v1/categorization-rules?cursor=bad')).status).toBe(400);
  });

  const countPersonalRules = async (userId: string) =>
    Number(
      (
        await stack.sql(
          'select count(*) from ledger.categorization_rules where user_id = $1 and profile_id is null and deleted_at is null',
          [userId],
        )
      )[0].count,
    );

  it('when a rule is deleted, then 200 with the rule as it was, it is gone from reads and stops categorizing', async () => {
    const sourceId = await source('Cinema Top');
    const rule = (
      await tenant.api.post('/v1/categorization-rules', { source_transaction_id: sourceId, category_id: MORADIA })
    ).body.rule;
    const response = await tenant.api.delete(`/v1/categorization-rules/${rule.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(rule);
    expect((await tenant.api.get(`/v1/categorization-rules/${rule.id}`)).body).toEqual(RULE_NOT_FOUND);
    expect((await tenant.api.delete(`/v1/categorization-rules/${rule.id}`)).status).toBe(404);
    const listed = await tenant.api.get('/v1/categorization-rules?limit=500');
    expect(listed.body.data.map((r: { id: string }) => r.id)).not.toContain(rule.id);
    const [row] = await stack.sql('select deleted_at from ledger.categorization_rules where id = $1', [rule.id]);
    expect(row.deleted_at).not.toBeNull();
    // its fingerprint is free again
    const again = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: sourceId,
      category_id: MORADIA,
    });
    expect(again.status).toBe(201);
    expect(again.body.rule.id).not.toBe(rule.id);
  });

  it.each([
    ['source_transaction_id missing', { category_id: ALIMENTACAO }, 'source_transaction_id'],
    ['category_id missing', { source_transaction_id: 'SOURCE' }, 'category_id'],
    ['a malformed source id', { source_transaction_id: 'x', category_id: ALIMENTACAO }, 'source_transaction_id'],
    [
      'an unknown match field',
      { source_transaction_id: 'SOURCE', category_id: ALIMENTACAO, match_fields: ['title'] },
      'match_fields.0',
    ],
    [
      'empty match_fields',
      { source_transaction_id: 'SOURCE', category_id: ALIMENTACAO, match_fields: [] },
      'match_fields',
    ],
    ['a string enabled', { source_transaction_id: 'SOURCE', category_id: ALIMENTACAO, enabled: 'true' }, 'enabled'],
    [
      'an unknown field',
      { source_transaction_id: 'SOURCE', category_id: ALIMENTACAO, merchant_name: 'x' },
      'merchant_name',
    ],
    [
      'a field the source lacks',
      { source_transaction_id: 'SOURCE', category_id: ALIMENTACAO, match_fields: ['merchant_cnpj'] },
      'match_fields',
    ],
    [
      'a subcategory of another category',
      { source_transaction_id: 'SOURCE', category_id: MORADIA, subcategory_id: PADARIA },
      'subcategory_id',
    ],
    [
      'apply_to_existing on a disabled rule',
      { source_transaction_id: 'SOURCE', category_id: MORADIA, enabled: false, apply_to_existing: true },
      'apply_to_existing',
    ],
  ])('when a rule is created with %s, then 400 with details and nothing is written', async (_label, body, field) => {
    const sourceId = await source('Validação Ltda');
    const payload = Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key, value === 'SOURCE' ? sourceId : value]),
    );
    const before = await countRules();
    const response = await tenant.api.post('/v1/categorization-rules', payload);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Dados inválidos' });
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countRules()).toBe(before);
    expect((await categoriesOf(stack, [sourceId]))[sourceId].category_id).toBeNull();
  });

  it('when the source transaction has no merchant data, then 400 naming it', async () => {
    const plain = await source(null, null);
    const response = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: plain,
      category_id: ALIMENTACAO,
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ field: 'source_transaction_id', message: expect.any(String) }]);
  });

  it.each([
    ['an empty body', {}],
    ['a non-boolean apply_to_existing', { apply_to_existing: 1 }],
    ['a read-only field (fingerprint)', { fingerprint: 'sha256:00' }],
    ['a malformed category', { category_id: 'nope' }],
  ])('when a rule is patched with %s, then 400', async (_label, body) => {
    const rule = (await tenant.api.get('/v1/categorization-rules?limit=1')).body.data[0];
    const response = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, body);
    expect(response.status).toBe(400);
    expect(response.body.details.length).toBeGreaterThan(0);
    expect((await tenant.api.get(`/v1/categorization-rules/${rule.id}`)).body).toEqual(rule);
  });

  it('when ids of another context are used, then 404 and nothing changes', async () => {
    const rule = (await tenant.api.get('/v1/categorization-rules?limit=1')).body.data[0];
    const foreignSource = await merchantTransaction(stack, other.api, {
      accountId: otherAccount,
      merchantName: 'Alheio',
    });
    const foreignCategory = (await other.api.post('/v1/categories', { name: 'Minha', is_expense: true })).body.id;
    const mySource = await source('Meu Mercado');
    const before = await countRules();

    expect((await other.api.get(`/v1/categorization-rules/${rule.id}`)).body).toEqual(RULE_NOT_FOUND);
    expect((await company.api.get(`/v1/categorization-rules/${rule.id}`)).status).toBe(404);
    expect((await other.api.patch(`/v1/categorization-rules/${rule.id}`, { enabled: false })).status).toBe(404);
    expect((await other.api.delete(`/v1/categorization-rules/${rule.id}`)).status).toBe(404);
    const bySource = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: foreignSource,
      category_id: ALIMENTACAO,
    });
    expect(bySource.status).toBe(404);
    expect(bySource.body.message).toBe('Transação não encontrada (source_transaction_id)');
    const byCategory = await tenant.api.post('/v1/categorization-rules', {
      source_transaction_id: mySource,
      category_id: foreignCategory,
    });
    expect(byCategory.status).toBe(404);
    const patchCategory = await tenant.api.patch(`/v1/categorization-rules/${rule.id}`, {
      category_id: foreignCategory,
    });
    expect(patchCategory.status).toBe(404);

    expect(await countRules()).toBe(before);
    expect((await tenant.api.get(`/v1/categorization-rules/${rule.id}`)).body).toEqual(rule);
    expect(await categoriesOf(stack, [foreignSource, mySource])).toEqual({
      [foreignSource]: { category_id: null, subcategory_id: null },
      [mySource]: { category_id: null, subcategory_id: null },
    });
  });

  it('when a read-only key writes, then 403; it may read', async () => {
    const rule = (await tenant.api.get('/v1/categorization-rules?limit=1')).body.data[0];
    const sourceId = await source('Somente Leitura');
    const create = await tenant.readOnly.post('/v1/categorization-rules', {
      source_transaction_id: sourceId,
      category_id: ALIMENTACAO,
    });
    expect(create.status).toBe(403);
    expect((await tenant.readOnly.patch(`/v1/categorization-rules/${rule.id}`, { enabled: false })).status).toBe(403);
    expect((await tenant.readOnly.delete(`/v1/categorization-rules/${rule.id}`)).status).toBe(403);
    expect((await tenant.readOnly.get(`/v1/categorization-rules/${rule.id}`)).body).toEqual(rule);
  });

  describe('merchant normalization', () => {
    const ruleFrom = async (merchantName: string) => {
      const source = await merchantTransaction(stack, tenant.api, { accountId: account, merchantName });
      return tenant.api.post('/v1/categorization-rules', { source_transaction_id: source, category_id: ALIMENTACAO });
    };

    it('when a name comes with combining accents (NFD), then its rule is the one of the composed spelling "SÃO JOÃO"', async () => {
      const decomposed = await ruleFrom('Sa\u0303o Joa\u0303o');
      expect(decomposed.status).toBe(201);
      expect(decomposed.body.rule.available_criteria[0].normalized).toBe('sao joao');
      const composed = await ruleFrom('SÃO JOÃO');
      expect(composed.status).toBe(200);
      expect(composed.body.rule.id).toBe(decomposed.body.rule.id);
      const rows = await stack.sql<{ n: string }>(
        `select distinct merchant_name_normalized as n from ledger.transactions where merchant_name in ($1, $2)`,
        ['Sa\u0303o Joa\u0303o', 'SÃO JOÃO'],
      );
      expect(rows).toEqual([{ n: 'sao joao' }]);
    });

    it('when a name holds a non-breaking space, then it updates the rule of the plain spelling instead of making another', async () => {
      const plain = await ruleFrom('POSTO IPIRANGA CENTRO');
      expect(plain.status).toBe(201);
      const nbsp = await ruleFrom('POSTO\u00a0IPIRANGA\u2009 CENTRO');
      expect(nbsp.status).toBe(200);
      expect(nbsp.body.rule.id).toBe(plain.body.rule.id);
    });
  });
});
