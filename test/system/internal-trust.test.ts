import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { TestStack } from '../support/stack.ts';

describe('services trust only the gateway', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  const context = { userId: '01890000-0000-7000-8000-000000000001', profileId: null, business: false, keyId: null };

  it.each(['ledger', 'billing', 'insights'])(
    'when %s is called without a signed context, then it refuses',
    async (name) => {
      const url = stack.service(name).url;
      const bare = await fetch(`${url}/v1/accounts`);
      expect([401, 403]).toContain(bare.status);
      const forged = await fetch(`${url}/v1/accounts`, {
        headers: { [CONTEXT_HEADER]: signContext(context, 'not-the-secret-but-long-enough-000000') },
      });
      expect([401, 403]).toContain(forged.status);
      const tampered = signContext(
        context,
        stack.env.INTERNAL_SECRET ?? 'dev-only-internal-secret-change-me-in-production',
      );
      const [payload, signature] = tampered.split('.');
      const other = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), userId: 'someone-else' }),
      ).toString('base64url');
      const swapped = await fetch(`${url}/v1/accounts`, { headers: { [CONTEXT_HEADER]: `${other}.${signature}` } });
      expect([401, 403]).toContain(swapped.status);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    },
  );

  it('when a context expired, then the service refuses it', async () => {
    const old = signContext(context, 'dev-only-internal-secret-change-me-in-production', Date.now() - 120_000);
    const response = await fetch(`${stack.service('ledger').url}/v1/accounts`, { headers: { [CONTEXT_HEADER]: old } });
    expect(response.status).toBe(401);
  });

  it('when a key is created, then the key table holds no secret in clear', async () => {
    const userId = await stack.createUser();
    const key = await stack.createKey(userId);
    const rows = await stack.sql<Record<string, unknown>>('select * from gateway.api_keys where id = $1', [key.keyId]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(key.secret);
    expect(stored).not.toContain(Buffer.from(key.secret).toString('base64'));
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token).toBe(key.token);
  });
});
