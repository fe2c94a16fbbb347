import type { CallerContext } from '@finance/shared/context/signed-context';
import { AppError } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { assertReferences } from '../src/domain/references/assert-references.ts';
import { findCategoriesByIds } from '../src/domain/references/category-lookup.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const SUPERMERCADO = '5c000000-0000-4000-8000-000100000001';
const SALARIO = 'c0000000-0000-4000-8000-000000000016';
const UNKNOWN = '0196f000-0000-7000-8000-000000000000';

async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string; details?: unknown }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message, details: err.details };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('ledger: assertReferences and findCategoriesByIds', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let personal: CallerContext;
  let business: CallerContext;
  let companyApi: Tenant['api'];
  const queries: string[] = [];
  const em = () => stack.service('ledger').orm.em.fork() as EntityManager;

  beforeAll(async () => {
    // only reads of the reference tables: background work (outbox relay, jobs) shares the ledger connection log
    const reference = /select .* from \W*(\w+\W+)?(categories|subcategories|contacts|cost_centers|tags)\b/s;
    stack = await TestStack.start({
      onQuery: (service, sql) => service === 'ledger' && reference.test(sql) && queries.push(sql),
    });
    tenant = await stack.tenant();
    const company = await stack.companyClient(tenant.userId);
    companyApi = company.api;
    personal = { userId: tenant.userId, profileId: null, business: false, keyId: null };
    business = { userId: tenant.userId, profileId: company.profileId, business: true, keyId: null };
  });
  afterAll(() => stack?.stop());

  it('when every reference is visible, then it passes with at most one query per kind', async () => {
    const category = (await companyApi.post('/v1/categories', { name: 'Frete', is_expense: true })).body;
    const sub = (await companyApi.post('/v1/subcategories', { category_id: category.id, name: 'Correios' })).body;
    const contact = (await companyApi.post('/v2/business/contacts', { name: 'Cliente' })).body;
    const center = (await companyApi.post('/v2/business/cost-centers', { name: 'Vendas' })).body;
    const tags = await Promise.all(
      ['a', 'b', 'c'].map(async (name) => (await companyApi.post('/v1/tags', { name })).body),
    );
    queries.length = 0;
    await assertReferences(em(), business, {
      categoryId: category.id,
      subcategoryId: sub.id,
      contactId: contact.id,
      costCenterId: center.id,
      tagIds: [...tags.map((t) => t.id), tags[0].id],
    });
    expect(queries).toHaveLength(5);
    queries.length = 0;
    await assertReferences(em(), personal, { categoryId: ALIMENTACAO, subcategoryId: SUPERMERCADO, tagIds: [] });
    await assertReferences(em(), personal, { categoryId: null, subcategoryId: null, tagIds: null });
    expect(queries).toHaveLength(2);
  });

  it('when an id is unknown or of another context, then 404 naming the field', async () => {
    const own = (await tenant.api.post('/v1/categories', { name: 'Minha', is_expense: true })).body;
    const tag = (await tenant.api.post('/v1/tags', { name: 'minha' })).body;
    const contact = (await companyApi.post('/v2/business/contacts', { name: 'C' })).body;
    expect(await failure(assertReferences(em(), business, { categoryId: own.id }))).toEqual({
      status: 404,
      message: 'Categoria não encontrada (category_id)',
      details: undefined,
    });
    expect((await failure(assertReferences(em(), personal, { subcategoryId: UNKNOWN }))).message).toBe(
      'Subcategoria não encontrada (subcategory_id)',
    );
    expect((await failure(assertReferences(em(), business, { tagIds: [tag.id] }))).message).toBe(
      'Tag não encontrada (tag_ids)',
    );
    expect((await failure(assertReferences(em(), personal, { contactId: contact.id }))).message).toBe(
      'Contato não encontrado (contact_id)',
    );
    expect((await failure(assertReferences(em(), personal, { costCenterId: UNKNOWN }))).message).toBe(
      'Centro de custo não encontrado (cost_center_id)',
    );
    await tenant.api.delete(`/v1/tags/${tag.id}`);
    expect((await failure(assertReferences(em(), personal, { tagIds: [tag.id] }))).status).toBe(404);
  });

  it('when the subcategory belongs to another category, then 400 on subcategory_id', async () => {
    expect(
      await failure(assertReferences(em(), personal, { categoryId: SALARIO, subcategoryId: SUPERMERCADO })),
    ).toEqual({
      status: 400,
      message: 'Dados inválidos',
      details: [{ field: 'subcategory_id', message: 'a subcategoria não pertence à categoria informada' }],
    });
  });

  it('when categories are looked up by id, then the visible ones come as Category records in one query', async () => {
    const own = (await tenant.api.post('/v1/categories', { name: 'Própria', is_expense: false })).body;
    const foreign = (await companyApi.post('/v1/categories', { name: 'Da empresa', is_expense: true })).body;
    queries.length = 0;
    const found = await findCategoriesByIds(em(), personal, [ALIMENTACAO, own.id, foreign.id, UNKNOWN, own.id]);
    expect(queries).toHaveLength(1);
    expect([...found.keys()].sort()).toEqual([own.id, ALIMENTACAO].sort());
    expect(found.get(own.id)).toEqual(own);
    expect(found.get(ALIMENTACAO)).toMatchObject({ name: 'Alimentação', user_id: null, is_expense: true });
    expect((await findCategoriesByIds(em(), personal, [])).size).toBe(0);
  });
});
