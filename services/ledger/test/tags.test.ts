import type { ApiClient } from '../../../test/support/api-client.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Tag não encontrada' };

describe('ledger: tags through the gateway', () => {
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

  const tagRow = async (id: string) =>
    (await stack.sql('select * from ledger.tags where id = $1', [id]))[0] as Record<string, unknown>;
  const countTags = async () => Number((await stack.sql('select count(*) from ledger.tags'))[0].count);

  it('when a tag is created, then 201 with every field and the row is in the caller’s context', async () => {
    const response = await tenant.api.post('/v1/tags', { name: ' Viagem ', color: '#0EA5E9', user_id: other.userId });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Viagem',
      color: '#0EA5E9',
      profile_id: null,
      user_id: tenant.userId,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: expect.stringMatching(TIMESTAMP),
    });
    expect(await tagRow(response.body.id)).toMatchObject({
      name: 'Viagem',
      color: '#0EA5E9',
      user_id: tenant.userId,
      profile_id: null,
      deleted_at: null,
    });
    expect((await tenant.api.get(`/v1/tags/${response.body.id}`)).body).toEqual(response.body);
  });

  it('when the colour is left out, then it defaults to #64748B', async () => {
    const response = await tenant.api.post('/v1/tags', { name: 'Sem cor' });
    expect(response.status).toBe(201);
    expect(response.body.color).toBe('#64748B');
  });

  it('when the company creates a tag, then it belongs to the company context', async () => {
    const response = await company.api.post('/v1/tags', { name: 'Cliente A', color: '#111111' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ profile_id: company.profileId, user_id: tenant.userId });
    expect((await tenant.api.get(`/v1/tags/${response.body.id}`)).status).toBe(404);
  });

  it.each([
    ['name missing', { color: '#000000' }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name over 60 characters', { name: 'x'.repeat(61) }, 'name'],
    ['a bad colour', { name: 'X', color: '#12345' }, 'color'],
    ['an unknown field', { name: 'X', icon: 'x' }, 'icon'],
    ['a name holding a NUL character', { name: 'A\u0000B' }, 'name'],
  ])('when a tag is created with %s, then 400 with details and nothing is written', async (_l, body, field) => {
    const before = await countTags();
    const response = await tenant.api.post('/v1/tags', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Dados inválidos' });
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countTags()).toBe(before);
  });

  it('when a tag is updated, then only the fields sent change; an empty body is 400', async () => {
    const tag = (await tenant.api.post('/v1/tags', { name: 'Casa', color: '#222222' })).body;
    const response = await tenant.api.put(`/v1/tags/${tag.id}`, { color: '#333333' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...tag, color: '#333333', updatedAt: expect.stringMatching(TIMESTAMP) });
    expect(await tagRow(tag.id)).toMatchObject({ name: 'Casa', color: '#333333' });
    const empty = await tenant.api.put(`/v1/tags/${tag.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.details).toHaveLength(1);
    const bad = await tenant.api.put(`/v1/tags/${tag.id}`, { color: 'azul' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('color');
  });

  it('when a tag is deleted, then it is logically deleted, returned as it was, and reads answer 404', async () => {
    const tag = (await tenant.api.post('/v1/tags', { name: 'Temporária' })).body;
    const response = await tenant.api.delete(`/v1/tags/${tag.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tag);
    expect((await tagRow(tag.id)).deleted_at).not.toBeNull();
    expect((await tenant.api.get(`/v1/tags/${tag.id}`)).body).toEqual(NOT_FOUND);
    expect((await tenant.api.put(`/v1/tags/${tag.id}`, { name: 'Y' })).status).toBe(404);
    expect((await tenant.api.delete(`/v1/tags/${tag.id}`)).status).toBe(404);
  });

  it('when listing, then only the context’s live tags come, paged by cursor', async () => {
    const fresh = await stack.tenant();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) ids.push((await fresh.api.post('/v1/tags', { name })).body.id);
    await fresh.api.delete(`/v1/tags/${ids[2]}`);
    const first = await fresh.api.get('/v1/tags?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((t: { name: string }) => t.name)).toEqual(['a', 'b']);
    expect(typeof first.body.next_cursor).toBe('string');
    const second = await fresh.api.get(`/v1/tags?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((t: { name: string }) => t.name)).toEqual(['d', 'e']);
    expect(second.body.next_cursor).toBeNull();
    expect((await fresh.api.get('/v1/tags?limit=501')).status).toBe(400);
    expect((await fresh.api.get('/v1/tags?cursor=zzz')).status).toBe(400);
  });

  it('when another user or the same user’s company uses a tag id, then 404 and nothing changes', async () => {
    const tag = (await tenant.api.post('/v1/tags', { name: 'Privada', color: '#444444' })).body;
    for (const api of [other.api, company.api]) {
      expect((await api.get(`/v1/tags/${tag.id}`)).body).toEqual(NOT_FOUND);
      expect((await api.put(`/v1/tags/${tag.id}`, { name: 'Roubada' })).body).toEqual(NOT_FOUND);
      expect((await api.delete(`/v1/tags/${tag.id}`)).body).toEqual(NOT_FOUND);
      const listed = (await api.get('/v1/tags?limit=500')).body.data as Array<{ id: string }>;
      expect(listed.some((t) => t.id === tag.id)).toBe(false);
    }
    expect(await tagRow(tag.id)).toMatchObject({ name: 'Privada', color: '#444444', deleted_at: null });
  });

  it('when a read-only key writes, then 403 and nothing is written', async () => {
    const tag = (await tenant.api.post('/v1/tags', { name: 'Fixa' })).body;
    const before = await countTags();
    expect((await tenant.readOnly.post('/v1/tags', { name: 'Nope' })).status).toBe(403);
    expect((await tenant.readOnly.put(`/v1/tags/${tag.id}`, { name: 'Nope' })).status).toBe(403);
    expect((await tenant.readOnly.delete(`/v1/tags/${tag.id}`)).status).toBe(403);
    expect(await countTags()).toBe(before);
    expect(await tagRow(tag.id)).toMatchObject({ name: 'Fixa', deleted_at: null });
    expect((await tenant.readOnly.get(`/v1/tags/${tag.id}`)).status).toBe(200);
  });
});
