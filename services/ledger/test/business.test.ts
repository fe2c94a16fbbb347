import type { ApiClient } from '../../../test/support/api-client.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const COMPRAS = 'c0000000-0000-4000-8000-000000000007';
const IMPOSTOS = 'c0000000-0000-4000-8000-000000000009';
const INVESTIMENTOS = 'c0000000-0000-4000-8000-000000000014';
const SALARIO = 'c0000000-0000-4000-8000-000000000016';

type Company = { profileId: string; api: ApiClient };

describe('ledger: business contacts, cost centers and DRE mapping through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let company: Company;
  let otherCompany: Company;
  let inactive: Company;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    company = await stack.companyClient(tenant.userId);
    inactive = await stack.companyClient(tenant.userId, 'inactive');
    const other = await stack.tenant();
    otherCompany = await stack.companyClient(other.userId);
  });
  afterAll(() => stack?.stop());

  const count = async (table: string) => Number((await stack.sql(`select count(*) from ledger.${table}`))[0].count);
  const fields = (body: { details: Array<{ field: string }> }) => body.details.map((d) => d.field);

  describe('issue 2 acceptance: personal key and inactive-license key on a business route → 403', () => {
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/v2/business/contacts', undefined],
      ['POST', '/v2/business/contacts', { name: 'Cliente' }],
      ['GET', `/v2/business/contacts/${ALIMENTACAO}`, undefined],
      ['PUT', `/v2/business/contacts/${ALIMENTACAO}`, { name: 'X' }],
      ['DELETE', `/v2/business/contacts/${ALIMENTACAO}`, undefined],
      ['GET', '/v2/business/cost-centers', undefined],
      ['POST', '/v2/business/cost-centers', { name: 'Vendas' }],
      ['GET', `/v2/business/cost-centers/${ALIMENTACAO}`, undefined],
      ['PUT', `/v2/business/cost-centers/${ALIMENTACAO}`, { name: 'X' }],
      ['DELETE', `/v2/business/cost-centers/${ALIMENTACAO}`, undefined],
      ['GET', '/v2/business/dre-mapping', undefined],
      ['PUT', '/v2/business/dre-mapping', [{ category_id: ALIMENTACAO, dre_group: 'custos' }]],
    ];

    it.each([
      ['a personal key', () => tenant.api],
      ['an inactive-license company key', () => inactive.api],
    ])('when %s calls every business route, then 403 each time and nothing is written', async (_label, client) => {
      const before = await Promise.all(['contacts', 'cost_centers', 'dre_mappings'].map(count));
      for (const [method, path, body] of calls) {
        const response = await client().request(method, path, body === undefined ? {} : { body });
        expect([method, path, response.status]).toEqual([method, path, 403]);
        expect(response.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
        expect(typeof response.body.message).toBe('string');
      }
      expect(await Promise.all(['contacts', 'cost_centers', 'dre_mappings'].map(count))).toEqual(before);
    });

    it('when a license turns active, then the same company key is let in', async () => {
      const later = await stack.companyClient(tenant.userId, 'inactive');
      expect((await later.api.get('/v2/business/contacts')).status).toBe(403);
      await stack.setLicense(later.profileId, 'active');
      expect((await later.api.get('/v2/business/contacts')).status).toBe(200);
    });
  });

  describe('contacts', () => {
    it('when a contact is created with every field, then 201 with the record, digits-only document and the row', async () => {
      const response = await company.api.post('/v2/business/contacts', {
        name: 'Distribuidora Sol Ltda',
        kind: 'SUPPLIER',
        document: '12.345.678/0001-95',
        email: 'financeiro@sol.com.br',
        phone: '+55 (11) 3333-4444',
        profile_id: otherCompany.profileId,
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Distribuidora Sol Ltda',
        kind: 'SUPPLIER',
        document: '12345678000195',
        email: 'financeiro@sol.com.br',
        phone: '+55 (11) 3333-4444',
        profile_id: company.profileId,
        user_id: tenant.userId,
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      const [row] = await stack.sql('select * from ledger.contacts where id = $1', [response.body.id]);
      expect(row).toMatchObject({ profile_id: company.profileId, document: '12345678000195', deleted_at: null });
      expect((await company.api.get(`/v2/business/contacts/${response.body.id}`)).body).toEqual(response.body);
    });

    it('when only the name is sent, then kind defaults to BOTH and the rest is null', async () => {
      const response = await company.api.post('/v2/business/contacts', { name: 'Maria' });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'Maria', kind: 'BOTH', document: null, email: null, phone: null });
    });

    it.each([
      ['name missing', { kind: 'CUSTOMER' }, 'name'],
      ['an unknown kind', { name: 'X', kind: 'PARTNER' }, 'kind'],
      ['a document of 12 digits', { name: 'X', document: '123456789012' }, 'document'],
      ['a bad email', { name: 'X', email: 'not-an-email' }, 'email'],
      ['a bad phone', { name: 'X', phone: 'abc' }, 'phone'],
      ['an unknown field', { name: 'X', city: 'SP' }, 'city'],
      ['a name holding a NUL character', { name: 'A\u0000B' }, 'name'],
    ])('when a contact is created with %s, then 400 with details and nothing is written', async (_l, body, field) => {
      const before = await count('contacts');
      const response = await company.api.post('/v2/business/contacts', body);
      expect(response.status).toBe(400);
      expect(fields(response.body)).toContain(field);
      expect(await count('contacts')).toBe(before);
    });

    it('when a contact is updated, then only the fields sent change and null clears; delete is logical', async () => {
      const contact = (await company.api.post('/v2/business/contacts', { name: 'João', email: 'j@x.com.br' })).body;
      const put = await company.api.put(`/v2/business/contacts/${contact.id}`, { kind: 'CUSTOMER', email: null });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        ...contact,
        kind: 'CUSTOMER',
        email: null,
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      expect((await company.api.put(`/v2/business/contacts/${contact.id}`, {})).status).toBe(400);
      const del = await company.api.delete(`/v2/business/contacts/${contact.id}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ id: contact.id, kind: 'CUSTOMER' });
      const [row] = await stack.sql('select deleted_at from ledger.contacts where id = $1', [contact.id]);
      expect(row.deleted_at).not.toBeNull();
      expect((await company.api.get(`/v2/business/contacts/${contact.id}`)).status).toBe(404);
    });

    it('when listing, then the company’s live contacts come by cursor, and another company sees none of them', async () => {
      const fresh = await stack.companyClient(tenant.userId);
      const ids: string[] = [];
      for (const name of ['A', 'B', 'C']) ids.push((await fresh.api.post('/v2/business/contacts', { name })).body.id);
      const first = await fresh.api.get('/v2/business/contacts?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.data.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 2));
      const second = await fresh.api.get(`/v2/business/contacts?limit=2&cursor=${first.body.next_cursor}`);
      expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[2] })], next_cursor: null });
      expect((await otherCompany.api.get('/v2/business/contacts')).body).toEqual({ data: [], next_cursor: null });
    });

    it('when another company (of another user or of the same user) uses the id, then 404 and nothing changes', async () => {
      const contact = (await company.api.post('/v2/business/contacts', { name: 'Privado' })).body;
      const sibling = await stack.companyClient(tenant.userId);
      for (const api of [otherCompany.api, sibling.api]) {
        const notFound = { statusCode: 404, error: 'Not Found', message: 'Contato não encontrado' };
        expect((await api.get(`/v2/business/contacts/${contact.id}`)).body).toEqual(notFound);
        expect((await api.put(`/v2/business/contacts/${contact.id}`, { name: 'X' })).body).toEqual(notFound);
        expect((await api.delete(`/v2/business/contacts/${contact.id}`)).body).toEqual(notFound);
      }
      const [row] = await stack.sql('select name, deleted_at from ledger.contacts where id = $1', [contact.id]);
      expect(row).toEqual({ name: 'Privado', deleted_at: null });
    });
  });

  describe('cost centers', () => {
    it('when a cost center is created, read, updated, listed and deleted, then every field is right', async () => {
      const created = await company.api.post('/v2/business/cost-centers', { name: ' Marketing ', code: 'MKT' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Marketing',
        code: 'MKT',
        profile_id: company.profileId,
        user_id: tenant.userId,
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      const id = created.body.id;
      expect((await company.api.get(`/v2/business/cost-centers/${id}`)).body).toEqual(created.body);
      const put = await company.api.put(`/v2/business/cost-centers/${id}`, { code: null });
      expect(put.body).toEqual({ ...created.body, code: null, updatedAt: expect.stringMatching(TIMESTAMP) });
      const listed = await company.api.get('/v2/business/cost-centers?limit=500');
      expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
      const del = await company.api.delete(`/v2/business/cost-centers/${id}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ id, code: null });
      const [row] = await stack.sql('select * from ledger.cost_centers where id = $1', [id]);
      expect(row).toMatchObject({ name: 'Marketing', code: null, profile_id: company.profileId });
      expect(row.deleted_at).not.toBeNull();
      expect((await company.api.get(`/v2/business/cost-centers/${id}`)).status).toBe(404);
    });

    it.each([
      ['name missing', { code: 'X' }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['a code over 30 characters', { name: 'X', code: 'x'.repeat(31) }, 'code'],
      ['an unknown field', { name: 'X', budget: 10 }, 'budget'],
    ])(
      'when a cost center is created with %s, then 400 with details and nothing is written',
      async (_l, body, field) => {
        const before = await count('cost_centers');
        const response = await company.api.post('/v2/business/cost-centers', body);
        expect(response.status).toBe(400);
        expect(fields(response.body)).toContain(field);
        expect(await count('cost_centers')).toBe(before);
      },
    );

    it('when another company uses the id, then 404 and nothing changes', async () => {
      const center = (await company.api.post('/v2/business/cost-centers', { name: 'Privado' })).body;
      const sibling = await stack.companyClient(tenant.userId);
      for (const api of [otherCompany.api, sibling.api]) {
        expect((await api.get(`/v2/business/cost-centers/${center.id}`)).status).toBe(404);
        expect((await api.put(`/v2/business/cost-centers/${center.id}`, { name: 'X' })).status).toBe(404);
        expect((await api.delete(`/v2/business/cost-centers/${center.id}`)).status).toBe(404);
      }
      const [row] = await stack.sql('select name, deleted_at from ledger.cost_centers where id = $1', [center.id]);
      expect(row).toEqual({ name: 'Privado', deleted_at: null });
    });
  });

  describe('DRE mapping', () => {
    it('when nothing is mapped, then every visible category comes with its default group', async () => {
      const fresh = await stack.companyClient(tenant.userId);
      const own = (await fresh.api.post('/v1/categories', { name: 'Frete', is_expense: true })).body;
      const ownIncome = (await fresh.api.post('/v1/categories', { name: 'Consultorias', is_expense: false })).body;
      const response = await fresh.api.get('/v2/business/dre-mapping');
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(24);
      const byId = new Map(response.body.map((e: { category_id: string }) => [e.category_id, e]));
      expect(byId.get(ALIMENTACAO)).toEqual({
        category_id: ALIMENTACAO,
        category_name: 'Alimentação',
        dre_group: 'despesas_operacionais',
        is_system: true,
        source: 'default',
      });
      expect(byId.get(IMPOSTOS)).toMatchObject({ dre_group: 'deducoes', source: 'default' });
      expect(byId.get(INVESTIMENTOS)).toMatchObject({ dre_group: 'investimento' });
      expect(byId.get(SALARIO)).toMatchObject({ dre_group: 'receita', is_system: true });
      expect(byId.get(own.id)).toEqual({
        category_id: own.id,
        category_name: 'Frete',
        dre_group: 'despesas_operacionais',
        is_system: false,
        source: 'default',
      });
      expect(byId.get(ownIncome.id)).toMatchObject({ dre_group: 'receita', is_system: false, source: 'default' });
      const personalCategory = (await tenant.api.post('/v1/categories', { name: 'Pessoal', is_expense: true })).body;
      expect(byId.has(personalCategory.id)).toBe(false);
    });

    it('when the company has its own categories, then the mapping lists the system ones first, then by id', async () => {
      const fresh = await stack.companyClient(tenant.userId);
      const first = (await fresh.api.post('/v1/categories', { name: 'Frete', is_expense: true })).body;
      const second = (await fresh.api.post('/v1/categories', { name: 'Consultorias', is_expense: false })).body;
      const entries = (await fresh.api.get('/v2/business/dre-mapping')).body as Array<{
        category_id: string;
        is_system: boolean;
      }>;
      const systemIds = entries.filter((e) => e.is_system).map((e) => e.category_id);
      expect(entries.map((e) => e.category_id)).toEqual([...[...systemIds].sort(), ...[first.id, second.id].sort()]);
    });

    it('when groups are set, then the listed ones change, the rest keep theirs, and the complete mapping returns', async () => {
      const fresh = await stack.companyClient(tenant.userId);
      const own = (await fresh.api.post('/v1/categories', { name: 'Matéria-prima', is_expense: true })).body;
      const response = await fresh.api.put('/v2/business/dre-mapping', [
        { category_id: COMPRAS, dre_group: 'retiradas' },
        { category_id: own.id, dre_group: 'custos' },
      ]);
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(23);
      const byId = new Map(response.body.map((e: { category_id: string }) => [e.category_id, e]));
      expect(byId.get(COMPRAS)).toEqual({
        category_id: COMPRAS,
        category_name: 'Compras',
        dre_group: 'retiradas',
        is_system: true,
        source: 'mapping',
      });
      expect(byId.get(own.id)).toMatchObject({ dre_group: 'custos', source: 'mapping', is_system: false });
      expect(byId.get(ALIMENTACAO)).toMatchObject({ dre_group: 'despesas_operacionais', source: 'default' });
      const again = await fresh.api.put('/v2/business/dre-mapping', [{ category_id: COMPRAS, dre_group: 'custos' }]);
      const after = new Map(again.body.map((e: { category_id: string }) => [e.category_id, e]));
      expect(after.get(COMPRAS)).toMatchObject({ dre_group: 'custos', source: 'mapping' });
      expect(after.get(own.id)).toMatchObject({ dre_group: 'custos', source: 'mapping' });
      expect((await fresh.api.get('/v2/business/dre-mapping')).body).toEqual(again.body);
      const stored = await stack.sql(
        'select category_id, dre_group, user_id from ledger.dre_mappings where profile_id = $1 order by category_id',
        [fresh.profileId],
      );
      expect(stored).toEqual(
        [
          { category_id: COMPRAS, dre_group: 'custos', user_id: tenant.userId },
          { category_id: own.id, dre_group: 'custos', user_id: tenant.userId },
        ].sort((a, b) => a.category_id.localeCompare(b.category_id)),
      );
      const elsewhere = await otherCompany.api.get('/v2/business/dre-mapping');
      const compras = elsewhere.body.find((e: { category_id: string }) => e.category_id === COMPRAS);
      expect(compras).toMatchObject({ dre_group: 'custos', source: 'default' });
    });

    it('when an item carries id, user_id, profile_id, createdAt or updatedAt, then they are ignored (docs/decisions.md §2)', async () => {
      const fresh = await stack.companyClient(tenant.userId);
      const response = await fresh.api.put('/v2/business/dre-mapping', [
        {
          category_id: COMPRAS,
          dre_group: 'custos',
          id: COMPRAS,
          user_id: '0196f000-0000-7000-8000-000000000001',
          profile_id: otherCompany.profileId,
          createdAt: '2020-01-01T00:00:00.000Z',
          updatedAt: '2020-01-01T00:00:00.000Z',
        },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.find((e: { category_id: string }) => e.category_id === COMPRAS)).toMatchObject({
        dre_group: 'custos',
        source: 'mapping',
      });
      expect(
        await stack.sql(
          'select user_id, profile_id from ledger.dre_mappings where category_id = $1 and profile_id = $2',
          [COMPRAS, fresh.profileId],
        ),
      ).toEqual([{ user_id: tenant.userId, profile_id: fresh.profileId }]);
    });

    it('when a listed category is unknown, of another context or deleted, then 404 and nothing changes', async () => {
      const fresh = await stack.companyClient(tenant.userId);
      const personal = (await tenant.api.post('/v1/categories', { name: 'Só minha', is_expense: true })).body;
      const foreign = (await otherCompany.api.post('/v1/categories', { name: 'Deles', is_expense: true })).body;
      const gone = (await fresh.api.post('/v1/categories', { name: 'Apagada', is_expense: true })).body;
      await fresh.api.delete(`/v1/categories/${gone.id}`);
      for (const id of [personal.id, foreign.id, gone.id, '0196f000-0000-7000-8000-000000000000']) {
        const response = await fresh.api.put('/v2/business/dre-mapping', [
          { category_id: COMPRAS, dre_group: 'custos' },
          { category_id: id, dre_group: 'custos' },
        ]);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      }
      expect(await stack.sql('select * from ledger.dre_mappings where profile_id = $1', [fresh.profileId])).toEqual([]);
    });

    it.each([
      ['an unknown group', [{ category_id: COMPRAS, dre_group: 'lucro' }], '0.dre_group'],
      ['a missing category_id', [{ dre_group: 'custos' }], '0.category_id'],
      ['an object instead of an array', { category_id: COMPRAS, dre_group: 'custos' }, 'body'],
      ['an empty array', [], 'body'],
      [
        'a category listed twice',
        [
          { category_id: COMPRAS, dre_group: 'custos' },
          { category_id: COMPRAS, dre_group: 'receita' },
        ],
        '1',
      ],
      ['an unknown field', [{ category_id: COMPRAS, dre_group: 'custos', note: 'x' }], '0.note'],
    ])('when the mapping has %s, then 400 with details and nothing changes', async (_l, body, field) => {
      const before = await count('dre_mappings');
      const response = await company.api.put('/v2/business/dre-mapping', body);
      expect(response.status).toBe(400);
      expect(fields(response.body)).toContain(field);
      expect(await count('dre_mappings')).toBe(before);
    });
  });

  it('when a read-only company key writes on business routes, then 403 and nothing is written', async () => {
    const key = await stack.createKey(tenant.userId, ['read'], company.profileId);
    const readOnly = stack.client(key);
    const contact = (await company.api.post('/v2/business/contacts', { name: 'Fixo' })).body;
    const before = await Promise.all(['contacts', 'cost_centers', 'dre_mappings'].map(count));
    expect((await readOnly.post('/v2/business/contacts', { name: 'X' })).status).toBe(403);
    expect((await readOnly.put(`/v2/business/contacts/${contact.id}`, { name: 'X' })).status).toBe(403);
    expect((await readOnly.delete(`/v2/business/contacts/${contact.id}`)).status).toBe(403);
    expect((await readOnly.post('/v2/business/cost-centers', { name: 'X' })).status).toBe(403);
    const dre = await readOnly.put('/v2/business/dre-mapping', [{ category_id: COMPRAS, dre_group: 'custos' }]);
    expect(dre.status).toBe(403);
    expect(await Promise.all(['contacts', 'cost_centers', 'dre_mappings'].map(count))).toEqual(before);
    expect((await readOnly.get(`/v2/business/contacts/${contact.id}`)).status).toBe(200);
    expect((await readOnly.get('/v2/business/dre-mapping')).status).toBe(200);
  });

  describe('DRE default of "Impostos e taxas"', () => {
    it('when a company never mapped "Impostos e taxas", then its default is deducoes and its entries reduce net revenue', async () => {
      const company = await stack.companyClient(tenant.userId);
      const account = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      const mapping = (await company.api.get('/v2/business/dre-mapping')).body as Array<Record<string, unknown>>;
      expect(mapping.find((entry) => entry.category_id === IMPOSTOS)).toEqual({
        category_id: IMPOSTOS,
        category_name: 'Impostos e taxas',
        dre_group: 'deducoes',
        is_system: true,
        source: 'default',
      });
      for (const [amount, isExpense, category] of [
        [10_000, false, null],
        [1_500, true, IMPOSTOS],
      ] as const) {
        const created = await company.api.post('/v1/transactions', {
          title: 'Lançamento',
          amount,
          is_expense: isExpense,
          date: '2026-03-05',
          account_id: account,
          category_id: category,
          paid: true,
        });
        expect(created.status).toBe(201);
      }
      const dre = await company.api.get('/v2/business/dre?start_date=2026-03-01&end_date=2026-03-31');
      expect(dre.status).toBe(200);
      const group = (name: string) => dre.body.groups.find((g: { dre_group: string }) => g.dre_group === name);
      expect(group('deducoes')).toMatchObject({ expenses: 1_500, total: -1_500 });
      expect(group('financeiro')).toMatchObject({ expenses: 0, total: 0 });
      expect(dre.body).toMatchObject({ receita_liquida: 8_500 });
    });

    it('when a company mapped "Impostos e taxas" itself, then its choice stands', async () => {
      const company = await stack.companyClient(tenant.userId);
      await company.api.put('/v2/business/dre-mapping', [{ category_id: IMPOSTOS, dre_group: 'financeiro' }]);
      const mapping = (await company.api.get('/v2/business/dre-mapping')).body as Array<Record<string, unknown>>;
      expect(mapping.find((entry) => entry.category_id === IMPOSTOS)).toMatchObject({
        dre_group: 'financeiro',
        source: 'mapping',
      });
    });
  });
});
