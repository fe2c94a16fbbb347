import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { ACCESS_PROPAGATION_MS } from '../src/domain/manage-access.ts';

const INVALID = { message: 'Credenciais de API inválidas', statusCode: 401, error: 'Unauthorized' };
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
const account = { name: 'Conta corrente', logo: '341' };

describe('gateway: keys, scopes, contexts and the public error shape', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const countAccounts = async () => Number((await stack.sql('select count(*) from ledger.accounts'))[0].count);

  it.each([
    ['no header', undefined],
    ['a wrong scheme', 'Bearer abc.def'],
    ['bad base64', 'Basic !!!not-base64!!!'],
    ['base64 without a colon', basic('just-a-token')],
    ['an unknown token', basic('fk_00000000000000000000000000000000:whatever')],
  ])('when the credential is %s, then every path answers the exact 401', async (_label, authorization) => {
    const client = stack.client();
    // unknown paths beside the docs and the (here disabled) queue dashboard too: nothing answers before the key
    for (const path of [
      '/v1/accounts',
      '/v1/nowhere',
      '/v2/bills/show-by-card/x',
      '/docs/nowhere',
      '/docs/assets/nowhere.js',
      '/admin/nowhere',
      '/admin/queues',
    ]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const response = await client.get(path, headers);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID);
    }
    const post = await client.request('POST', '/v1/accounts', {
      body: account,
      headers: authorization ? { authorization } : {},
    });
    expect(post.status).toBe(401);
    expect(post.body).toEqual(INVALID);
  });

  it('when the secret is wrong, then 401 and nothing is written', async () => {
    const before = await countAccounts();
    const response = await stack.client().request('POST', '/v1/accounts', {
      body: account,
      headers: { authorization: basic(`${tenant.key.token}:wrong-secret`) },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
    expect(await countAccounts()).toBe(before);
  });

  it('when a key is revoked, then it answers 401 at once', async () => {
    const key = await stack.createKey(tenant.userId);
    const client = stack.client(key);
    expect((await client.get('/v1/accounts')).status).toBe(200);
    await stack.revokeKey(key.keyId);
    const response = await client.get('/v1/accounts');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
  });

  it('when a key is revoked, then the next request on every gateway replica is 401 (by SQL: within 100 ms)', async () => {
    const replica = await stack.startGatewayReplica();
    const revocations = [
      (keyId: string) => stack.revokeKey(keyId),
      async (keyId: string) => {
        await stack.sql('update gateway.api_keys set revoked_at = now() where id = $1', [keyId]);
        await new Promise((resolve) => setTimeout(resolve, ACCESS_PROPAGATION_MS));
      },
    ];
    for (const revoke of revocations) {
      const key = await stack.createKey(tenant.userId);
      const clients = [stack.client(key), replica.client(key)];
      // twice each: the second answer comes from each replica's cache of verified keys
      for (const client of [...clients, ...clients]) expect((await client.get('/v1/accounts')).status).toBe(200);
      await revoke(key.keyId);
      for (const client of clients) {
        const response = await client.get('/v1/accounts');
        expect(response.status).toBe(401);
        expect(response.body).toEqual(INVALID);
      }
    }
  });

  it('when a cached company key loses its license, then the next request on every replica is refused', async () => {
    const replica = await stack.startGatewayReplica();
    const company = await stack.companyClient(tenant.userId);
    const clients = [company.api, replica.client(company.key)];
    for (const client of [...clients, ...clients]) expect((await client.get('/v2/business/contacts')).status).toBe(200);
    await stack.setLicense(company.profileId, 'inactive');
    for (const client of clients) expect((await client.get('/v2/business/contacts')).status).toBe(403);
  });

  it('when the connection listening for revocations is cut, then it comes back and revocations reach the cache again', async () => {
    const key = await stack.createKey(tenant.userId);
    const client = stack.client(key);
    expect((await client.get('/v1/accounts')).status).toBe(200);
    const listeners = () =>
      stack.sql<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and application_name = 'finance-gateway-listen'`,
      );
    const before = (await listeners()).map((row) => row.pid);
    expect(before.length).toBeGreaterThan(0);
    await stack.sql('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]);
    await waitFor(async () => {
      const now = (await listeners()).map((row) => row.pid);
      return now.length === before.length && now.every((pid) => !before.includes(pid)) ? true : undefined;
    });
    expect((await client.get('/v1/accounts')).status).toBe(200);
    expect((await client.get('/v1/accounts')).status).toBe(200);
    await stack.revokeKey(key.keyId);
    expect((await client.get('/v1/accounts')).status).toBe(401);
  });

  it('when a cached key is used with a wrong secret, then 401, before and after its right secret is seen again', async () => {
    const key = await stack.createKey(tenant.userId);
    const wrong = stack.client({ ...key, secret: 'wrong-secret' });
    // the secret one character off, same length: what a digest compared carelessly might let through
    const nearly = stack.client({
      ...key,
      secret: `${key.secret.slice(0, -1)}${key.secret.endsWith('A') ? 'B' : 'A'}`,
    });
    expect((await stack.client(key).get('/v1/accounts')).status).toBe(200);
    const response = await wrong.get('/v1/accounts');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
    expect((await stack.client(key).get('/v1/accounts')).status).toBe(200);
    expect((await nearly.get('/v1/accounts')).status).toBe(401);
    expect((await wrong.get('/v1/accounts')).status).toBe(401);
    expect((await stack.client(key).get('/v1/accounts')).status).toBe(200);
  });

  it('when a read-only key writes, then 403 and nothing is written', async () => {
    const before = await countAccounts();
    const response = await tenant.readOnly.post('/v1/accounts', account);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect(typeof response.body.message).toBe('string');
    expect(await countAccounts()).toBe(before);
    expect((await tenant.readOnly.get('/v1/accounts')).status).toBe(200);
  });

  it('when a write-only key reads, then 403', async () => {
    const key = await stack.createKey(tenant.userId, ['write']);
    const response = await stack.client(key).get('/v1/accounts');
    expect(response.status).toBe(403);
  });

  it('when a route is unknown, then 404 with the error shape', async () => {
    const response = await tenant.api.get('/v1/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: expect.any(String), statusCode: 404, error: 'Not Found' });
  });

  it('when JSON is malformed, then 400 with the error shape', async () => {
    const response = await tenant.api.request('POST', '/v1/accounts', {
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String), statusCode: 400, error: 'Bad Request' });
  });

  it('when a POST or PUT that takes a body sends none, then 400 with details and nothing is written', async () => {
    const before = await countAccounts();
    for (const [method, path] of [
      ['POST', '/v1/accounts'],
      ['PUT', '/v2/business/dre-mapping'],
    ]) {
      const api = path.startsWith('/v2/business') ? (await stack.companyClient(tenant.userId)).api : tenant.api;
      const response = await api.request(method, path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: expect.any(Array) });
    }
    expect(await countAccounts()).toBe(before);
  });

  it('when a path holds a broken %-escape or a gzip body does not inflate, then 400 with the error shape', async () => {
    const path = await tenant.api.get('/v1/accounts/%E0%A4%A');
    expect(path.status).toBe(400);
    expect(path.body).toEqual({ message: expect.any(String), statusCode: 400, error: 'Bad Request' });
    const gzip = await tenant.api.request('POST', '/v1/accounts', {
      rawBody: 'not gzip',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(gzip.status).toBe(400);
    expect(gzip.body).toEqual({ message: expect.any(String), statusCode: 400, error: 'Bad Request' });
  });

  it('when the body is over 1 MiB, then 413', async () => {
    const response = await tenant.api.post('/v1/accounts', { name: 'x'.repeat(1024 * 1024 + 10), logo: '341' });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('when the body is not JSON, then 415', async () => {
    const response = await tenant.api.request('POST', '/v1/accounts', {
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  });

  it('when the body is JSON under a +json media type, then it is read as JSON, not dropped', async () => {
    const response = await tenant.api.request('POST', '/v1/accounts', {
      rawBody: JSON.stringify({ name: 'Conta vnd', logo: '341' }),
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Conta vnd' });
    const config = await tenant.api.request('PUT', '/v2/personal-config', {
      rawBody: JSON.stringify({ show_open_bill: false }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ show_open_bill: false, configured: true });
  });

  it('when answering, then security headers are set and x-powered-by is absent', async () => {
    const response = await tenant.api.get('/v1/accounts');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('when a service answers the gateway, then it skips the security headers only the public door needs', async () => {
    const internal = await fetch(`${stack.service('ledger').url}/healthz`);
    expect(internal.status).toBe(200);
    expect(internal.headers.get('x-content-type-options')).toBeNull();
    expect(internal.headers.get('content-security-policy')).toBeNull();
  });

  it('when the process is asked, then /healthz and /readyz answer without a key', async () => {
    expect((await stack.client().get('/healthz')).status).toBe(200);
    expect((await stack.client().get('/readyz')).body).toMatchObject({ status: 'ready' });
  });
});
