import { addDays, todayUtc } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import { ANA_CPF, authorizeInBrowser, connectSandbox, syncedImport } from '../../../../test/support/sandbox-bank.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';

/** The deployment's front end, where a connection may send the customer's browser back (OPEN_BANKING_RETURN_URLS). */
const FRONT_END = 'https://app.example.com/conexoes';

/** The full connect flow against Banco Sandbox, through the gateway, as a client and the customer's browser would. */
describe('Open Finance: connecting Banco Sandbox', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let callbackPrefix: string;

  beforeAll(async () => {
    stack = await TestStack.start({
      sandbox: true,
      serviceEnv: { ledger: { OPEN_BANKING_RETURN_URLS: `${FRONT_END},https://parceiro.example.com.br/` } },
    });
    tenant = await stack.tenant();
    callbackPrefix = `${stack.url}/v1/open-banking/callback`;
  });
  afterAll(() => stack?.stop());

  const synced = syncedImport;

  it('when a client connects, the customer authorises and the callback completes, then a year of accounts, card bills and investments is listed, and a second sync creates nothing', async () => {
    const institutions = await tenant.api.get('/v1/open-banking/institutions');
    expect(institutions.status).toBe(200);
    expect(institutions.body).toEqual({
      data: [{ id: 'banco-sandbox', name: 'Banco Sandbox', provider: 'open_finance' }],
      next_cursor: null,
    });

    const created = await tenant.api.post('/v1/open-banking/connections', {
      institution_id: 'banco-sandbox',
      cpf: ANA_CPF,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      institution_id: 'banco-sandbox',
      institution: 'Banco Sandbox',
      status: 'AWAITING_AUTHORISATION',
      authorization_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/auth\?.*request_uri=/),
      consent_expires_at: expect.any(String),
      last_synced_at: null,
    });
    const id = created.body.id;
    const sandbox = stack.sandbox as NonNullable<TestStack['sandbox']>;
    const consentOf = async () => (await sandbox.consents()).at(-1);
    expect(await consentOf()).toMatchObject({ status: 'AWAITING_AUTHORISATION', cpf: ANA_CPF });

    const callback = await authorizeInBrowser(created.body.authorization_url, callbackPrefix);
    expect(new URL(callback).searchParams.get('response')).toEqual(expect.any(String));
    const answered = await stack.client().request('GET', callback.slice(stack.url.length));
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ connection_id: id, status: 'ACTIVE', message: expect.any(String) });
    expect((await consentOf())?.status).toBe('AUTHORISED');

    const { connection, job } = await synced(tenant.api, id);
    expect(job).toMatchObject({ state: 'completed', error: null });
    expect(connection).toMatchObject({ status: 'ACTIVE', authorization_url: null, last_sync_error: null });
    expect(job.result).toMatchObject({
      connection_id: id,
      accounts: { received: 1, created: 1 },
      credit_cards: { received: 1, created: 1 },
      investments: { received: 3, snapshots: 3 },
    });
    expect(job.result.transactions.created).toBeGreaterThan(150);

    const accounts = (await tenant.api.get('/v1/accounts')).body;
    expect(accounts.data ?? accounts).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Banco Sandbox 0012345678' })]),
    );
    const cards = (await tenant.api.get('/v1/credit-cards')).body;
    expect(JSON.stringify(cards)).toContain('Sandbox Platinum');

    // the refresh token is stored sealed, never as the institution issued it
    const [stored] = await stack.sql<{
      refresh_token: string;
      authorization_secret: string | null;
      state_hash: string | null;
    }>('select refresh_token, authorization_secret, state_hash from ledger.connections where id = $1', [id]);
    expect(stored.refresh_token).toMatch(/^v1\.dev\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.authorization_secret).toBeNull();
    expect(stored.state_hash).toBeNull();

    // a second sync: nothing new
    const first = connection.last_import_job_id;
    expect((await tenant.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const again = await synced(tenant.api, id, first);
    expect(again.job.result.transactions.created).toBe(0);
    expect(again.job.result.accounts.created).toBe(0);
  });

  it('when a sync is imported, then each mapping rule holds: exact cents, direction, the context’s day, merchant CNPJ and type, pending and scheduled entries as one entry each once effected, installments, a purchase abroad, bills', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api);
    const first = await synced(owner.api, id);
    expect(first.job.state).toBe('completed');
    const rows = async () =>
      stack.sql<Record<string, any>>(
        `select external_id, amount, date::text as date, is_expense, title, merchant_name, merchant_cnpj, operation_type,
                account_id, credit_card_id, bill_id from ledger.transactions where connection_id = $1 and deleted_at is null`,
        [id],
      );
    const byTitle = (list: Array<Record<string, any>>, title: string) => list.filter((row) => row.title === title);
    const imported = await rows();
    const [cents] = byTitle(imported, 'PIX TESTE CENTAVOS');
    expect(cents).toMatchObject({ amount: '10', is_expense: true, operation_type: 'PIX', merchant_cnpj: null });
    const [sale] = byTitle(imported, 'TED VENDA DE IMOVEL');
    expect(sale).toMatchObject({
      amount: '123456789',
      is_expense: false,
      operation_type: 'TED',
      merchant_cnpj: '33000167000101',
    });
    // 02:30 UTC three days ago is 23:30 of the day before in São Paulo
    const [night] = byTitle(imported, 'PIX RESTAURANTE NOTURNO');
    expect(night.date).toBe(addDays(todayUtc(), -4));
    expect(byTitle(imported, 'SALARIO EMPRESA EXEMPLO LTDA')[0]).toMatchObject({
      operation_type: 'FOLHA_PAGAMENTO',
      merchant_cnpj: '11222333000181',
    });
    // card entries land in bills; the card's record of a bill's payment is left to the account
    const cardRows = imported.filter((row) => row.credit_card_id !== null);
    expect(cardRows.length).toBeGreaterThan(40);
    expect(cardRows.every((row) => row.bill_id !== null)).toBe(true);
    expect(byTitle(imported, 'PAGAMENTO RECEBIDO')).toEqual([]);
    expect(byTitle(imported, 'AMAZON.COM US')[0]).toMatchObject({ amount: '27540', is_expense: true });
    expect(byTitle(imported, 'NOTEBOOK LOJA TECNOLOGIA').length).toBeGreaterThanOrEqual(4);

    // what the pipeline wrote of each mapped field: the source's status, installments, original amount and bill
    const written = async () =>
      stack.sql<Record<string, any>>(
        `select t.title, t.date::text as date, t.amount, t.original_amount, t.original_currency, t.bill_id,
                t.installments, coalesce(t.connected_transaction_id, t.id) as series, k.status
         from ledger.transactions t join ledger.import_keys k on k.transaction_id = t.id
         where t.connection_id = $1 and t.deleted_at is null`,
        [id],
      );
    const sent = byTitle.bind(null, await written());
    expect(sent('PIX MERCADO DO BAIRRO')).toEqual([expect.objectContaining({ status: 'PENDING' })]);
    expect(sent('BOLETO CONDOMINIO EDIFICIO SOL')).toEqual([
      // the sandbox schedules it at noon UTC five days after its day (the clock's UTC day)
      expect.objectContaining({ status: 'FORECAST', date: addDays(todayUtc(), 5) }),
    ]);
    expect(sent('AMAZON.COM US')[0]).toMatchObject({
      amount: '27540',
      original_amount: '50.00',
      original_currency: 'USD',
      bill_id: expect.any(String),
    });
    const parts = sent('NOTEBOOK LOJA TECNOLOGIA');
    expect(new Set(parts.map((tx) => tx.series)).size).toBe(1);
    expect(parts.map((tx) => tx.installments)).toEqual(parts.map(() => 6));
    const [{ payload }] = await stack.sql<{ payload: any }>(
      'select payload from ledger.open_banking_imports where job_id = $1',
      [first.connection.last_import_job_id],
    );
    expect(payload.investments.map((position: { snapshots: unknown[] }) => position.snapshots)).toEqual(
      payload.investments.map(() => [{ date: todayIn('America/Sao_Paulo'), balance_cents: expect.any(Number) }]),
    );

    // the institution effects the processing and scheduled entries: the next sync keeps one entry per id
    await stack.sandbox?.settlePending();
    expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const second = await synced(owner.api, id, first.connection.last_import_job_id);
    expect(second.job.result.transactions.created).toBe(0);
    expect(byTitle(await written(), 'PIX MERCADO DO BAIRRO')).toContainEqual(
      expect.objectContaining({ status: 'BOOKED' }),
    );
    const after = await rows();
    expect(byTitle(after, 'PIX MERCADO DO BAIRRO')).toHaveLength(1);
    expect(byTitle(after, 'BOLETO CONDOMINIO EDIFICIO SOL')).toHaveLength(1);
    expect(after).toHaveLength(imported.length);
  });

  it('when redirect_uri lies outside the front end or the CPF’s check digits are wrong, then 400 on that field and nothing reaches the institution; an allowed redirect_uri gets the browser back', async () => {
    const sandbox = stack.sandbox as NonNullable<TestStack['sandbox']>;
    const consentsBefore = (await sandbox.consents()).length;
    const connectionsBefore = (await tenant.api.get('/v1/open-banking/connections?limit=500')).body.data.length;
    const refused: Array<[string, unknown]> = [
      ...[
        'https://evil.example/cb',
        'http://app.example.com/conexoes',
        'https://app.example.com@evil.example/conexoes',
        'https://app.example.com/conexoes%0d%0aSet-Cookie:%20a=b',
        'http://127.0.0.1:9/internal',
        'https://app.example.com/outra-pagina',
      ].map((redirect_uri): [string, unknown] => ['redirect_uri', { institution_id: 'banco-sandbox', redirect_uri }]),
      ...['12345678900', '00000000000', '7610927767'].map((cpf): [string, unknown] => [
        'cpf',
        { institution_id: 'banco-sandbox', cpf },
      ]),
    ];
    for (const [field, body] of refused) {
      const answer = await tenant.api.post('/v1/open-banking/connections', body);
      expect([body, answer.status, answer.body.details?.map((d: { field: string }) => d.field)]).toEqual([
        body,
        400,
        [field],
      ]);
    }
    expect((await sandbox.consents()).length).toBe(consentsBefore);
    expect((await tenant.api.get('/v1/open-banking/connections?limit=500')).body.data).toHaveLength(connectionsBefore);

    const created = await tenant.api.post('/v1/open-banking/connections', {
      institution_id: 'banco-sandbox',
      cpf: ANA_CPF,
      redirect_uri: `${FRONT_END}/fim?origem=app`,
    });
    expect(created.status).toBe(201);
    const callback = await authorizeInBrowser(created.body.authorization_url, callbackPrefix);
    const answer = await fetch(callback, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get('location') as string);
    expect([back.origin, back.pathname, Object.fromEntries(back.searchParams)]).toEqual([
      'https://app.example.com',
      '/conexoes/fim',
      { origem: 'app', connection_id: created.body.id, status: 'ACTIVE' },
    ]);
  });
});
