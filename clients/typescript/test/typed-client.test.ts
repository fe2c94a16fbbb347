import { createFinanceClient, type FinanceClient } from '@finance/client';
import { openApiMismatches } from '../../../test/support/openapi-check.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';

/** fetch that checks each request/answer pair against the served document, like the test ApiClient does. */
const checkedFetch = async (input: Request): Promise<Response> => {
  const sent = input.clone();
  const text = await sent.text();
  const response = await fetch(input);
  const body = await response.clone().text();
  const url = new URL(input.url);
  const mismatches = openApiMismatches({
    method: input.method,
    url: `${url.pathname}${url.search}`,
    body: text ? JSON.parse(text) : undefined,
    status: response.status,
    responseBody: body ? JSON.parse(body) : undefined,
    headers: response.headers,
  });
  if (mismatches.length) throw new Error(`OpenAPI document and server disagree:\n${mismatches.join('\n')}`);
  return response;
};

describe('typed client (clients/typescript) against the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let api: FinanceClient;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    api = createFinanceClient({
      baseUrl: stack.url,
      keyId: tenant.key.token,
      secret: tenant.key.secret,
      fetch: checkedFetch,
    });
  });
  afterAll(() => stack?.stop());

  it('when an account and an expense are made and listed, then the typed answers carry them', async () => {
    const created = await api.POST('/v1/accounts', { body: { name: 'Conta corrente', logo: '341', balance: 150000 } });
    expect(created.response.status).toBe(201);
    const account = created.data;
    if (!account) throw new Error('no account');
    expect(account).toMatchObject({ name: 'Conta corrente', balance: 150000, is_default: true });
    const expense = await api.POST('/v1/transactions', {
      body: {
        account_id: account.id,
        amount: 4590,
        date: '2026-03-10',
        title: 'Padaria',
        is_expense: true,
        paid: true,
      },
    });
    expect(expense.response.status).toBe(201);
    expect(expense.data).toMatchObject({ amount: 4590, title: 'Padaria', account_id: account.id });
    const page = await api.GET('/v1/transactions', { params: { query: { limit: 10 } } });
    expect(page.data?.data.map((transaction) => transaction.title)).toEqual(['Padaria']);
    const [row] = await stack.sql<{ amount: string }>('select amount from ledger.transactions where id = $1', [
      expense.data?.id,
    ]);
    expect(Number(row.amount)).toBe(4590);
    const shown = await api.GET('/v1/accounts/{id}', { params: { path: { id: account.id } } });
    expect(shown.data?.balance).toBe(150000 - 4590);
  });

  it('when the request is refused, then the typed error body says why', async () => {
    const bad = await api.POST('/v1/tags', { body: { name: 'Viagem', color: 'vermelho' } });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ statusCode: 400, details: [expect.objectContaining({ field: 'color' })] });
    const missing = await api.GET('/v1/accounts/{id}', {
      params: { path: { id: '0194b1c2-7d3e-7a01-8f00-0000000000a1' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.statusCode).toBe(404);
  });

  it('when the secret is wrong, then 401', async () => {
    const wrong = createFinanceClient({ baseUrl: stack.url, keyId: tenant.key.token, secret: 'errado' });
    const answer = await wrong.GET('/v1/accounts');
    expect(answer.response.status).toBe(401);
  });
});
