import type { ApiClient, ApiResponse } from '../../../test/support/api-client.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const SUPERMERCADO = '5c000000-0000-4000-8000-000100000001';
const SALARIO = 'c0000000-0000-4000-8000-000000000016';
const READ_ONLY = { statusCode: 409, error: 'Conflict', message: 'Categorias do sistema não podem ser alteradas' };
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('ledger: categories and subcategories through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let other: Tenant;
  let company: { profileId: string; api: ApiClient };

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    other = await stack.tenant();
    company = await stack.companyClient(tenant.userId);
  });
  afterAll(() => stack?.stop());

  const row = async (table: string, id: string) =>
    (await stack.sql(`select * from ledger.${table} where id = $1`, [id]))[0] as Record<string, unknown>;

  async function listAll(api: ApiClient, path: string): Promise<any[]> {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const response: ApiResponse = await api.get(`${path}${sep}limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      all.push(...response.body.data);
      cursor = response.body.next_cursor;
    } while (cursor);
    return all;
  }

  describe('system categories', () => {
    it('when listing, then the seeded Brazilian set is visible with fixed ids, read-only fields and subcategories', async () => {
      const categories = await listAll(tenant.api, '/v1/categories');
      expect(categories).toHaveLength(22);
      const food = categories.find((c) => c.id === ALIMENTACAO);
      expect(food).toEqual({
        id: ALIMENTACAO,
        name: 'Alimentação',
        is_expense: true,
        is_essential: true,
        is_hidden: false,
        icon: null,
        icon_name: 'utensils',
        icon_background_color: '#F97316',
        image: null,
        profile_id: null,
        user_id: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      expect(categories.filter((c) => !c.is_expense).map((c) => c.name)).toEqual([
        'Salário',
        'Pró-labore',
        'Freelance',
        'Vendas',
        'Rendimentos',
        'Reembolsos',
        'Outras receitas',
      ]);
      const income = await tenant.api.get('/v1/categories?is_expense=false');
      expect(income.body.data).toHaveLength(7);
      const subs = await listAll(tenant.api, `/v1/subcategories?category_id=${ALIMENTACAO}`);
      expect(subs.map((s) => s.name)).toEqual(['Supermercado', 'Restaurantes', 'Delivery', 'Padaria']);
      expect(subs[0]).toEqual({
        id: SUPERMERCADO,
        category_id: ALIMENTACAO,
        name: 'Supermercado',
        is_essential: true,
        is_hidden: false,
        icon_name: 'shopping-cart',
        icon_background_color: '#F97316',
        image: null,
        profile_id: null,
        user_id: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      const everySub = await listAll(tenant.api, '/v1/subcategories');
      const parents = new Set(everySub.map((s) => s.category_id));
      expect(categories.every((c) => parents.has(c.id))).toBe(true);
    });

    it('when a system category or subcategory is changed or deleted, then 409 and nothing changes', async () => {
      const put = await tenant.api.put(`/v1/categories/${ALIMENTACAO}`, { name: 'Comida' });
      expect(put.status).toBe(409);
      expect(put.body).toEqual(READ_ONLY);
      const del = await company.api.delete(`/v1/categories/${SALARIO}`);
      expect(del.status).toBe(409);
      const putSub = await tenant.api.put(`/v1/subcategories/${SUPERMERCADO}`, { name: 'Mercado' });
      expect(putSub.status).toBe(409);
      expect(putSub.body).toEqual(READ_ONLY);
      expect((await tenant.api.delete(`/v1/subcategories/${SUPERMERCADO}`)).status).toBe(409);
      expect(await row('categories', ALIMENTACAO)).toMatchObject({ name: 'Alimentação', deleted_at: null });
      expect(await row('subcategories', SUPERMERCADO)).toMatchObject({ name: 'Supermercado', deleted_at: null });
      expect((await tenant.api.get(`/v1/categories/${SALARIO}`)).body.name).toBe('Salário');
    });
  });

  describe('own categories', () => {
    it('when a category is created with every field, then 201 with the record and the row is stored', async () => {
      const response = await tenant.api.post('/v1/categories', {
        name: ' Feira ',
        is_expense: true,
        is_essential: true,
        is_hidden: true,
        icon: '🥕',
        icon_name: 'carrot',
        icon_background_color: '#22C55E',
        image: 'https://img.example.com/feira.png',
        user_id: other.userId,
        profile_id: company.profileId,
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Feira',
        is_expense: true,
        is_essential: true,
        is_hidden: true,
        icon: '🥕',
        icon_name: 'carrot',
        icon_background_color: '#22C55E',
        image: 'https://img.example.com/feira.png',
        profile_id: null,
        user_id: tenant.userId,
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      expect(await row('categories', response.body.id)).toMatchObject({
        user_id: tenant.userId,
        profile_id: null,
        name: 'Feira',
        is_expense: true,
        dre_group: null,
      });
      expect((await tenant.api.get(`/v1/categories/${response.body.id}`)).body).toEqual(response.body);
    });

    it('when a category is created with only the required fields, then the defaults apply', async () => {
      const response = await tenant.api.post('/v1/categories', { name: 'Bicos', is_expense: false });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        name: 'Bicos',
        is_expense: false,
        is_essential: false,
        is_hidden: false,
        icon: null,
        icon_name: 'tag',
        icon_background_color: '#64748B',
        image: null,
      });
    });

    it.each([
      ['name missing', { is_expense: true }, 'name'],
      ['is_expense as a string', { name: 'X', is_expense: 'true' }, 'is_expense'],
      ['empty name', { name: '   ', is_expense: true }, 'name'],
      ['a bad colour', { name: 'X', is_expense: true, icon_background_color: 'red' }, 'icon_background_color'],
      ['an image that is not a URL', { name: 'X', is_expense: true, image: 'ftp://x' }, 'image'],
      ['an unknown field', { name: 'X', is_expense: true, color: '#000000' }, 'color'],
      ['a name holding a NUL character', { name: 'A\u0000B', is_expense: true }, 'name'],
    ])('when a category is created with %s, then 400 with details and nothing is written', async (_l, body, field) => {
      const before = await stack.sql('select count(*)::int n from ledger.categories');
      const response = await tenant.api.post('/v1/categories', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await stack.sql('select count(*)::int n from ledger.categories')).toEqual(before);
    });

    it('when a category is updated, then only the fields sent change', async () => {
      const created = (await tenant.api.post('/v1/categories', { name: 'Carro', is_expense: true, icon: 'x' })).body;
      const response = await tenant.api.put(`/v1/categories/${created.id}`, {
        name: 'Carro novo',
        icon: null,
        icon_background_color: '#000000',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...created,
        name: 'Carro novo',
        icon: null,
        icon_background_color: '#000000',
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      expect(await row('categories', created.id)).toMatchObject({ name: 'Carro novo', icon: null });
    });

    it('when an update is empty or tries to change is_expense, then 400', async () => {
      const created = (await tenant.api.post('/v1/categories', { name: 'Y', is_expense: true })).body;
      const empty = await tenant.api.put(`/v1/categories/${created.id}`, {});
      expect(empty.status).toBe(400);
      expect(empty.body.details).toHaveLength(1);
      const kind = await tenant.api.put(`/v1/categories/${created.id}`, { is_expense: false });
      expect(kind.status).toBe(400);
      expect(kind.body.details[0].field).toBe('is_expense');
      expect(await row('categories', created.id)).toMatchObject({ is_expense: true });
    });

    it('when a category is deleted, then its subcategories go too, logically, and reads answer 404', async () => {
      const category = (await tenant.api.post('/v1/categories', { name: 'Obra', is_expense: true })).body;
      const sub = (await tenant.api.post('/v1/subcategories', { category_id: category.id, name: 'Cimento' })).body;
      const response = await tenant.api.delete(`/v1/categories/${category.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(category);
      expect((await row('categories', category.id)).deleted_at).not.toBeNull();
      expect((await row('subcategories', sub.id)).deleted_at).not.toBeNull();
      expect((await tenant.api.get(`/v1/categories/${category.id}`)).status).toBe(404);
      expect((await tenant.api.get(`/v1/subcategories/${sub.id}`)).status).toBe(404);
      expect((await tenant.api.delete(`/v1/categories/${category.id}`)).status).toBe(404);
      const all = await listAll(tenant.api, '/v1/categories');
      expect(all.some((c) => c.id === category.id)).toBe(false);
    });

    it('when another user or the same user’s company uses the id, then 404 and nothing changes', async () => {
      const mine = (await tenant.api.post('/v1/categories', { name: 'Minha', is_expense: true })).body;
      for (const api of [other.api, company.api]) {
        const notFound = { statusCode: 404, error: 'Not Found', message: 'Categoria não encontrada' };
        expect((await api.get(`/v1/categories/${mine.id}`)).body).toEqual(notFound);
        expect((await api.put(`/v1/categories/${mine.id}`, { name: 'Roubada' })).status).toBe(404);
        expect((await api.delete(`/v1/categories/${mine.id}`)).status).toBe(404);
        expect((await api.post('/v1/subcategories', { category_id: mine.id, name: 'Z' })).status).toBe(404);
        expect((await api.get(`/v1/subcategories?category_id=${mine.id}`)).status).toBe(404);
        const listed = await listAll(api, '/v1/categories');
        expect(listed.some((c) => c.id === mine.id)).toBe(false);
        expect(listed).toHaveLength(22);
      }
      expect(await row('categories', mine.id)).toMatchObject({ name: 'Minha', deleted_at: null });
      expect(
        Number(
          (await stack.sql('select count(*) from ledger.subcategories where category_id = $1', [mine.id]))[0].count,
        ),
      ).toBe(0);
    });

    it('when the company creates a category, then it belongs to the company and the personal key cannot see it', async () => {
      const response = await company.api.post('/v1/categories', { name: 'Fornecedores', is_expense: true });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ profile_id: company.profileId, user_id: tenant.userId });
      expect((await tenant.api.get(`/v1/categories/${response.body.id}`)).status).toBe(404);
      expect((await company.api.get(`/v1/categories/${response.body.id}`)).status).toBe(200);
    });

    it('when a read-only key writes, then 403 and nothing is written', async () => {
      const mine = (await tenant.api.post('/v1/categories', { name: 'Fixa', is_expense: true })).body;
      const before = await stack.sql('select count(*)::int n from ledger.categories');
      expect((await tenant.readOnly.post('/v1/categories', { name: 'Nope', is_expense: true })).status).toBe(403);
      expect((await tenant.readOnly.put(`/v1/categories/${mine.id}`, { name: 'Nope' })).status).toBe(403);
      expect((await tenant.readOnly.delete(`/v1/categories/${mine.id}`)).status).toBe(403);
      expect((await tenant.readOnly.post('/v1/subcategories', { category_id: mine.id, name: 'N' })).status).toBe(403);
      expect(await stack.sql('select count(*)::int n from ledger.categories')).toEqual(before);
      expect(await row('categories', mine.id)).toMatchObject({ name: 'Fixa', deleted_at: null });
      expect((await tenant.readOnly.get(`/v1/categories/${mine.id}`)).status).toBe(200);
    });

    it('when the cursor is malformed, then 400', async () => {
      const response = await tenant.api.get('/v1/categories?cursor=garbage');
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe('cursor');
      expect((await tenant.api.get('/v1/categories?limit=0')).status).toBe(400);
    });
  });

  describe('own subcategories', () => {
    it('when a subcategory is created under a system category, then 201 with every field and the parent colour by default', async () => {
      const response = await tenant.api.post('/v1/subcategories', {
        category_id: ALIMENTACAO,
        name: 'Hortifruti',
        is_essential: true,
        icon_name: 'apple',
        image: 'https://img.example.com/h.png',
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        category_id: ALIMENTACAO,
        name: 'Hortifruti',
        is_essential: true,
        is_hidden: false,
        icon_name: 'apple',
        icon_background_color: '#F97316',
        image: 'https://img.example.com/h.png',
        profile_id: null,
        user_id: tenant.userId,
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      expect(await row('subcategories', response.body.id)).toMatchObject({ category_id: ALIMENTACAO });
      const listed = await listAll(tenant.api, `/v1/subcategories?category_id=${ALIMENTACAO}`);
      expect(listed.map((s) => s.id)).toContain(response.body.id);
      expect((await listAll(other.api, `/v1/subcategories?category_id=${ALIMENTACAO}`)).map((s) => s.id)).not.toContain(
        response.body.id,
      );
    });

    it('when a subcategory is updated and deleted, then only the fields sent change and then it is gone', async () => {
      const sub = (await tenant.api.post('/v1/subcategories', { category_id: ALIMENTACAO, name: 'Açougue' })).body;
      const put = await tenant.api.put(`/v1/subcategories/${sub.id}`, {
        is_hidden: true,
        icon_background_color: '#111111',
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        ...sub,
        is_hidden: true,
        icon_background_color: '#111111',
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      const moved = await tenant.api.put(`/v1/subcategories/${sub.id}`, { category_id: SALARIO });
      expect(moved.status).toBe(400);
      expect(moved.body.details[0].field).toBe('category_id');
      const del = await tenant.api.delete(`/v1/subcategories/${sub.id}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ id: sub.id, is_hidden: true });
      expect((await row('subcategories', sub.id)).deleted_at).not.toBeNull();
      expect((await tenant.api.get(`/v1/subcategories/${sub.id}`)).status).toBe(404);
    });

    it.each([
      ['category_id missing', { name: 'X' }, 'category_id'],
      ['a malformed category_id', { name: 'X', category_id: 'abc' }, 'category_id'],
      ['name missing', { category_id: ALIMENTACAO }, 'name'],
      ['is_hidden as a number', { category_id: ALIMENTACAO, name: 'X', is_hidden: 1 }, 'is_hidden'],
      ['icon (not a subcategory field)', { category_id: ALIMENTACAO, name: 'X', icon: 'x' }, 'icon'],
    ])('when a subcategory is created with %s, then 400 with details', async (_l, body, field) => {
      const response = await tenant.api.post('/v1/subcategories', body);
      expect(response.status).toBe(400);
      expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('when another user or the company uses a subcategory id, then 404 and nothing changes', async () => {
      const sub = (await tenant.api.post('/v1/subcategories', { category_id: ALIMENTACAO, name: 'Minha sub' })).body;
      for (const api of [other.api, company.api]) {
        expect((await api.get(`/v1/subcategories/${sub.id}`)).body).toEqual({
          statusCode: 404,
          error: 'Not Found',
          message: 'Subcategoria não encontrada',
        });
        expect((await api.put(`/v1/subcategories/${sub.id}`, { name: 'Z' })).status).toBe(404);
        expect((await api.delete(`/v1/subcategories/${sub.id}`)).status).toBe(404);
      }
      expect(await row('subcategories', sub.id)).toMatchObject({ name: 'Minha sub', deleted_at: null });
      expect((await tenant.readOnly.put(`/v1/subcategories/${sub.id}`, { name: 'Z' })).status).toBe(403);
      expect((await tenant.readOnly.delete(`/v1/subcategories/${sub.id}`)).status).toBe(403);
      expect(await row('subcategories', sub.id)).toMatchObject({ name: 'Minha sub', deleted_at: null });
    });
  });

  describe('categories without direction', () => {
    it('when a category is posted with the spec record (no is_expense), then 201 with is_expense null; the DRE groups its entries by each entry’s direction', async () => {
      const company = await stack.companyClient(tenant.userId);
      const created = await company.api.post('/v1/categories', {
        name: 'Serviços gerais',
        is_essential: true,
        icon_name: 'wrench',
        icon_background_color: '#112233',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Serviços gerais',
        is_expense: null,
        is_essential: true,
        icon_name: 'wrench',
        icon_background_color: '#112233',
      });
      const category = created.body.id;
      const companyAccount = (await company.api.post('/v1/accounts', { name: 'PJ', logo: '341' })).body.id;
      for (const [amount, isExpense] of [
        [7_000, false],
        [2_500, true],
      ] as const) {
        const tx = await company.api.post('/v1/transactions', {
          account_id: companyAccount,
          amount,
          date: '2026-03-10',
          is_expense: isExpense,
          paid: true,
          title: 'Serviço',
          category_id: category,
        });
        expect(tx.status).toBe(201);
      }
      const mapping = await company.api.get('/v2/business/dre-mapping');
      expect(mapping.body.find((entry: { category_id: string }) => entry.category_id === category)).toMatchObject({
        dre_group: null,
        source: 'default',
      });
      const dre = await company.api.get('/v2/business/dre?start_date=2026-03-01&end_date=2026-03-31');
      expect(dre.status).toBe(200);
      const group = (name: string) => dre.body.groups.find((g: { dre_group: string }) => g.dre_group === name);
      expect(group('receita')).toMatchObject({ income: 7_000, expenses: 0 });
      expect(group('despesas_operacionais')).toMatchObject({ income: 0, expenses: 2_500 });

      const expenseCategories = await company.api.get('/v1/categories?is_expense=true&limit=500');
      expect(expenseCategories.body.data.map((c: { id: string }) => c.id)).toContain(category);
      const incomeCategories = await company.api.get('/v1/categories?is_expense=false&limit=500');
      expect(incomeCategories.body.data.map((c: { id: string }) => c.id)).toContain(category);
    });

    it('when is_expense is not a boolean, then 400 and nothing is written', async () => {
      const response = await tenant.api.post('/v1/categories', { name: 'X', is_expense: 'sim' });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([
        { field: 'is_expense', message: 'is_expense deve ser verdadeiro ou falso' },
      ]);
      expect(await stack.sql(`select id from ledger.categories where name = 'X'`)).toEqual([]);
    });
  });
});
