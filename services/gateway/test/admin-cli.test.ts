import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TestStack } from '../../../test/support/stack.ts';

const run = promisify(execFile);
const NODE = 'node_modules/.bin/node';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run admin -- ...` the way the README describes (same script, own process). */
async function admin(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(NODE, ['services/gateway/src/admin/cli.ts', ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const json = (text: string) => {
  const lines = text.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
};

describe('admin CLI (README, "First call")', () => {
  let stack: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await TestStack.start();
    env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: stack.databaseUrl, KEY_PEPPER: stack.pepper };
  });
  afterAll(() => stack?.stop());

  it('when a user, a company and keys are made with it, then each prints one JSON object and the keys work through the gateway', async () => {
    const user = await admin(env, 'create-user', '--name', 'Ana');
    expect(user.code).toBe(0);
    const { user_id: userId } = json(user.stdout);
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);

    const company = await admin(env, 'create-company', '--user', userId, '--name', 'Loja', '--license', 'inactive');
    const { profile_id: profileId } = json(company.stdout);
    expect(profileId).toMatch(/^[0-9a-f-]{36}$/);

    const key = json(
      (await admin(env, 'create-key', '--user', userId, '--profile', profileId, '--scopes', 'read,write')).stdout,
    );
    expect(Object.keys(key).sort()).toEqual(['key_id', 'profile_id', 'scopes', 'secret', 'token', 'user_id']);
    expect(key).toMatchObject({ user_id: userId, profile_id: profileId, scopes: ['read', 'write'] });

    const api = stack.client({ keyId: key.key_id, token: key.token, secret: key.secret });
    expect((await api.get('/v1/accounts')).status).toBe(200);
    expect((await api.get('/v2/business/contacts')).status).toBe(403);

    const licensed = await admin(env, 'set-license', '--profile', profileId, '--license', 'active');
    expect(json(licensed.stdout)).toEqual({ profile_id: profileId, license: 'active' });
    expect((await api.get('/v2/business/contacts')).status).toBe(200);

    const revoked = json((await admin(env, 'revoke-key', '--key', key.key_id)).stdout);
    expect(revoked).toEqual({ key_id: key.key_id, revoked_at: expect.any(String) });
    expect((await api.get('/v1/accounts')).status).toBe(401);

    const listed = json((await admin(env, 'list-keys', '--user', userId)).stdout);
    expect(listed.keys).toEqual([
      expect.objectContaining({ key_id: key.key_id, token: key.token, revoked_at: revoked.revoked_at }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.secret);
  });

  it.each([
    [['bogus'], /^usage:/],
    [['create-user', '--bogus'], /^Opção desconhecida: --bogus/],
    [['create-user', '--name'], /^Opção sem valor: --name/],
    [['create-user', 'extra'], /^Argumento inesperado: extra/],
  ])(
    'when the command line is %j, then it answers in Portuguese before touching the database',
    async (args, message) => {
      // an unreachable database proves the usage check comes first
      const result = await admin({ ...env, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' }, ...args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(json(result.stderr).error).toMatch(message);
    },
  );

  it('when an option is missing, malformed or names nothing, then one JSON error on stderr, exit 1, no stack trace', async () => {
    const userId = await stack.createUser();
    const unknown = '01234567-89ab-7def-8123-456789abcdef';
    const cases: [string[], string][] = [
      [['create-company', '--user', userId], '--name é obrigatório'],
      [['create-company', '--user', 'nope', '--name', 'x'], '--user deve ser um UUID'],
      [['create-company', '--user', unknown, '--name', 'x'], 'Usuário não encontrado'],
      [['create-key', '--user', userId, '--scopes', 'admin'], 'Escopos inválidos: use read e/ou write'],
      [['revoke-key', '--key', unknown], 'Chave não encontrada'],
      [['set-license', '--profile', unknown, '--license', 'maybe'], '--license deve ser active ou inactive'],
    ];
    const results = await Promise.all(cases.map(([args]) => admin(env, ...args)));
    cases.forEach(([args, message], i) => {
      expect({ args, code: results[i].code, stdout: results[i].stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(json(results[i].stderr)).toEqual({ error: message });
    });
  });
});
