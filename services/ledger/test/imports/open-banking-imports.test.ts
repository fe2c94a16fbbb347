import { QUEUES } from '@finance/shared/queue/catalogue';
import { importAndWait } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';

const payload = (connectionId = 'conn-1') => ({
  connection: { id: connectionId, institution: 'Banco Exemplo' },
  accounts: [
    {
      external_id: 'acc-1',
      name: 'Conta corrente',
      type: 'PERSONAL_BANK',
      subtype: 'CHECKING_ACCOUNT',
      balance: 250000,
      logo: '341',
    },
    { external_id: 'acc-2', name: 'Poupança', type: 'PERSONAL_BANK', subtype: 'SAVINGS_ACCOUNT', balance: -1500 },
  ],
  credit_cards: [
    {
      external_id: 'card-1',
      name: 'Cartão Gold',
      account_external_id: 'acc-1',
      closing_day: 3,
      due_day: 10,
      limit: 500000,
    },
    { external_id: 'card-2', name: 'Cartão Black', account_external_id: 'acc-2', due_day: 15, limit: 900000 },
  ],
  transactions: [
    {
      external_id: 'tx-1',
      account_external_id: 'acc-1',
      amount: 4590,
      date: '2026-01-05',
      is_expense: true,
      title: 'Padaria',
      description: 'Pão e café',
      merchant_name: 'Padaria São João',
      merchant_cnpj: '12.345.678/0001-90',
      merchant_cnae: '1091-1/02',
      operation_type: 'PIX',
      logo_url: 'https://logos.example/padaria.png',
    },
    {
      external_id: 'tx-2',
      account_external_id: 'acc-2',
      amount: 100000,
      date: '2026-01-06T10:00:00-03:00',
      is_expense: false,
      title: 'Salário',
    },
    {
      external_id: 'tx-3',
      credit_card_external_id: 'card-1',
      amount: 12000,
      date: '2026-01-07',
      is_expense: true,
      title: 'Mercado',
      merchant_name: 'Supermercado Boa Compra',
      merchant_cnpj: '98765432000110',
      operation_type: 'COMPRA',
    },
    {
      external_id: 'tx-4',
      credit_card_external_id: 'card-2',
      amount: 990,
      date: '2026-01-08',
      is_expense: true,
      title: 'IOF',
      operation_type: 'IOF',
    },
  ],
  investments: [
    {
      investment_id: 'inv-1',
      name: 'Tesouro Selic 2029',
      bank_name: 'Banco Exemplo',
      type: 'FIXED_INCOME',
      subtype: 'TREASURY',
      snapshots: [
        { date: '2026-01-05', balance_cents: 1000000 },
        { date: '2026-01-06', balance_cents: 1000300 },
      ],
    },
    {
      investment_id: 'inv-2',
      name: 'CDB 110%',
      bank_name: 'Banco Exemplo',
      type: 'FIXED_INCOME',
      subtype: 'CDB',
      snapshots: [{ date: '2026-01-06', balance_cents: 500000 }],
    },
  ],
});

/** Posts an import and follows its job until it ends. */
describe('POST /v1/open-banking/imports: accounts, cards, transactions and investments of a connection', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const counts = async () =>
    (
      await stack.sql<Record<string, string>>(`select
        (select count(*) from ledger.connections) as connections,
        (select count(*) from ledger.accounts) as accounts,
        (select count(*) from ledger.transactions) as transactions,
        (select count(*) from billing.credit_cards) as cards,
        (select count(*) from ledger.background_jobs) as jobs`)
    )[0];

  /** Every stored row of the tenant's import, timestamps included, to compare before and after. */
  const snapshot = () =>
    Promise.all([
      stack.sql('select * from ledger.connections where user_id = $1 order by id', [tenant.userId]),
      stack.sql('select * from ledger.accounts where user_id = $1 order by id', [tenant.userId]),
      stack.sql('select * from ledger.transactions where user_id = $1 order by id', [tenant.userId]),
      stack.sql('select * from billing.credit_cards where user_id = $1 order by id', [tenant.userId]),
      stack.sql('select * from billing.bills where user_id = $1 order by id', [tenant.userId]),
    ]);

  let firstJobId: string;

  it('when a connection is imported, then accounts, cards, transactions and investments are stored and the job completes with counts', async () => {
    const { response, job } = await importAndWait(tenant.api, payload());
    if (response.status === 200) expect(response.body.job.state).toBe('completed');
    else expect(response.body.job).toMatchObject({ kind: 'IMPORT', state: expect.stringMatching(/waiting|active/) });
    firstJobId = job.id;
    expect(job).toMatchObject({ kind: 'IMPORT', state: 'completed', progress: 100, error: null });
    expect(job.finishedAt).not.toBeNull();
    const [connection] = await stack.sql<Record<string, unknown>>(
      'select * from ledger.connections where user_id = $1',
      [tenant.userId],
    );
    expect(job.result).toEqual({
      connection_id: connection.id,
      accounts: { received: 2, created: 2, updated: 0 },
      credit_cards: { received: 2, created: 2, updated: 0 },
      transactions: {
        received: 4,
        created: 4,
        updated: 0,
        duplicates: 0,
        skipped: 0,
        categorized: 0,
        reconciled: 0,
        reconciliation_suggestions: 0,
        removed: 0,
      },
      investments: { received: 2, snapshots: 3 },
    });
    expect(connection).toMatchObject({
      external_id: 'conn-1',
      institution: 'Banco Exemplo',
      status: 'ACTIVE',
      revoked_at: null,
    });

    const accounts = await stack.sql<Record<string, unknown>>(
      'select * from ledger.accounts where user_id = $1 order by external_id',
      [tenant.userId],
    );
    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toMatchObject({
      external_id: 'acc-1',
      connection_id: connection.id,
      bank_balance: '250000',
      type: 'PERSONAL_BANK',
      subtype: 'CHECKING_ACCOUNT',
      is_default: true,
      name: 'Conta corrente',
      logo: expect.stringMatching(/\/341\.png$/),
    });
    expect(accounts[1]).toMatchObject({
      external_id: 'acc-2',
      bank_balance: '-1500',
      subtype: 'SAVINGS_ACCOUNT',
      is_default: false,
    });
    const listed = await tenant.api.get('/v1/accounts');
    expect(listed.body.data.map((a: { balance: number }) => a.balance).sort()).toEqual([-1500, 250000]);

    const cards = await stack.sql<Record<string, unknown>>(
      'select * from billing.credit_cards where user_id = $1 order by external_id',
      [tenant.userId],
    );
    expect(cards).toHaveLength(2);
    expect(cards[0]).toMatchObject({
      external_id: 'card-1',
      account_id: accounts[0].id,
      connection_id: connection.id,
      closing_day: 3,
      due_day: 10,
      limit: '500000',
      needs_closing_date_review: false,
    });
    expect(cards[1]).toMatchObject({
      external_id: 'card-2',
      account_id: accounts[1].id,
      due_day: 15,
      closing_day: 8,
      needs_closing_date_review: true,
    });
    const card = await tenant.api.get(`/v1/credit-cards/${cards[1].id}`);
    expect(card.body).toMatchObject({ needs_closing_date_review: true, expiring_date: '15' });

    const txs = await stack.sql<Record<string, unknown>>(
      `select t.*, to_char(t.date, 'YYYY-MM-DD') as day from ledger.transactions t where user_id = $1 order by external_id`,
      [tenant.userId],
    );
    expect(txs).toHaveLength(4);
    expect(txs[0]).toMatchObject({
      external_id: 'tx-1',
      connection_id: connection.id,
      account_id: accounts[0].id,
      credit_card_id: null,
      amount: '4590',
      day: '2026-01-05',
      is_expense: true,
      paid: true,
      title: 'Padaria',
      description: 'Pão e café',
      merchant_name: 'Padaria São João',
      merchant_cnpj: '12.345.678/0001-90',
      merchant_cnae: '1091-1/02',
      operation_type: 'PIX',
      logo_url: 'https://logos.example/padaria.png',
      type: 'FIXED',
      category_id: null,
    });
    expect(txs[1]).toMatchObject({
      external_id: 'tx-2',
      day: '2026-01-06',
      is_expense: false,
      paid: true,
      account_id: accounts[1].id,
    });
    expect(txs[2]).toMatchObject({
      external_id: 'tx-3',
      credit_card_id: cards[0].id,
      account_id: null,
      paid: true,
      merchant_cnpj: '98765432000110',
    });
    expect(txs[2].bill_id).not.toBeNull();
    expect(txs[3]).toMatchObject({ external_id: 'tx-4', credit_card_id: cards[1].id, operation_type: 'IOF' });
    expect(txs[3].bill_id).not.toBeNull();
    const one = await tenant.api.get(`/v1/transactions/${txs[0].id}`);
    expect(one.body).toMatchObject({
      paid: true,
      paid_at: '2026-01-05T00:00:00.000Z',
      merchant_name: 'Padaria São João',
    });
    const bill = await tenant.api.get(`/v2/bills/show-by-card/${cards[0].id}?date=2026-02-10`);
    expect(bill.body.transactions.map((t: { id: string }) => t.id)).toContain(txs[2].id);

    // the positions went to insights under the fixed job id, and were stored before the import completed
    const handOver = await stack
      .service('ledger')
      .runtime.queues.get(QUEUES.investmentSnapshots)
      .getJob(`${job.id}-investments`);
    expect(handOver?.name).toBe('investments.imported');
    expect(handOver?.data).toEqual({
      background_job_id: job.id,
      context: { user_id: tenant.userId, profile_id: null },
      connection_id: connection.id,
      investments: payload().investments,
    });
    expect(await handOver?.isCompleted()).toBe(true);
    const [stored] = await stack.sql<{ positions: string; snapshots: string }>(
      `select (select count(*) from insights.investment_positions where user_id = $1) as positions,
              (select count(*) from insights.investment_snapshots s join insights.investment_positions p on p.id = s.position_id where p.user_id = $1) as snapshots`,
      [tenant.userId],
    );
    expect(stored).toEqual({ positions: '2', snapshots: '3' });
  });

  it('when the same import is sent again, then nothing changes: no new rows, no value or timestamp touched', async () => {
    const before = await snapshot();
    const countsBefore = await counts();
    const { job } = await importAndWait(tenant.api, payload());
    expect(job.state).toBe('completed');
    expect(job.result).toMatchObject({
      accounts: { received: 2, created: 0, updated: 0 },
      credit_cards: { received: 2, created: 0, updated: 0 },
      transactions: { received: 4, created: 0, updated: 0, duplicates: 4, skipped: 0 },
    });
    expect(await snapshot()).toEqual(before);
    expect(await counts()).toEqual({ ...countsBefore, jobs: String(Number(countsBefore.jobs) + 1) });
  });

  it('when the bank reports new figures, then the rows are updated in place and the category a user chose stays', async () => {
    const [tx1] = await stack.sql<{ id: string }>(
      "select id from ledger.transactions where external_id = 'tx-1' and user_id = $1",
      [tenant.userId],
    );
    const [category] = await stack.sql<{ id: string }>(
      'select id from ledger.categories where user_id is null limit 1',
    );
    await stack.sql('update ledger.transactions set category_id = $1 where id = $2', [category.id, tx1.id]);
    const body = payload();
    body.accounts[0].balance = 300000;
    body.transactions[0].amount = 4600;
    body.credit_cards[1] = { ...body.credit_cards[1], closing_day: 5 } as (typeof body.credit_cards)[0];
    const countsBefore = await counts();
    const { job } = await importAndWait(tenant.api, body);
    expect(job.result).toMatchObject({
      accounts: { created: 0, updated: 1 },
      credit_cards: { created: 0, updated: 1 },
      transactions: { created: 0, updated: 1 },
    });
    const [row] = await stack.sql<Record<string, unknown>>(
      'select amount, category_id from ledger.transactions where id = $1',
      [tx1.id],
    );
    expect(row).toEqual({ amount: '4600', category_id: category.id });
    const [card2] = await stack.sql(
      "select closing_day, needs_closing_date_review from billing.credit_cards where external_id = 'card-2' and user_id = $1",
      [tenant.userId],
    );
    expect(card2).toEqual({ closing_day: 5, needs_closing_date_review: false });
    const [acc] = await stack.sql(
      "select bank_balance from ledger.accounts where external_id = 'acc-1' and user_id = $1",
      [tenant.userId],
    );
    expect(acc).toEqual({ bank_balance: '300000' });
    expect({ ...(await counts()), jobs: '0' }).toEqual({ ...countsBefore, jobs: '0' });
  });

  it.each([
    ['no connection', { ...payload(), connection: undefined }, 'connection'],
    ['an unknown field', { ...payload(), extra: true }, 'extra'],
    [
      'an account type outside the list',
      { ...payload(), accounts: [{ ...payload().accounts[0], type: 'CHECKING' }] },
      'accounts.0.type',
    ],
    [
      'a transaction with an account and a card',
      { ...payload(), transactions: [{ ...payload().transactions[0], credit_card_external_id: 'card-1' }] },
      'transactions.0',
    ],
    [
      'a transaction with neither account nor card',
      { ...payload(), transactions: [{ ...payload().transactions[0], account_external_id: undefined }] },
      'transactions.0',
    ],
    [
      'a zero amount',
      { ...payload(), transactions: [{ ...payload().transactions[0], amount: 0 }] },
      'transactions.0.amount',
    ],
    [
      'a bad date',
      { ...payload(), transactions: [{ ...payload().transactions[0], date: '05/01/2026' }] },
      'transactions.0.date',
    ],
    [
      'a closing day of 32',
      { ...payload(), credit_cards: [{ ...payload().credit_cards[0], closing_day: 32 }] },
      'credit_cards.0.closing_day',
    ],
    [
      'a card without due day',
      { ...payload(), credit_cards: [{ ...payload().credit_cards[0], due_day: undefined }] },
      'credit_cards.0.due_day',
    ],
    [
      'a snapshot without balance',
      { ...payload(), investments: [{ ...payload().investments[0], snapshots: [{ date: '2026-01-05' }] }] },
      'investments.0.snapshots.0.balance_cents',
    ],
  ])('when the payload has %s, then 400 with details and nothing is written', async (_label, body, field) => {
    const before = await counts();
    const response = await tenant.api.post('/v1/open-banking/imports', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await counts()).toEqual(before);
  });

  it('when the user sets the closing day of a card imported without one, then it no longer needs review; a one-bill change keeps the flag', async () => {
    const user = await stack.tenant();
    const body = payload('conn-review');
    const { job } = await importAndWait(user.api, {
      ...body,
      credit_cards: [body.credit_cards[1], { ...body.credit_cards[1], external_id: 'card-3' }],
      transactions: [],
    });
    expect(job.state).toBe('completed');
    const cards = (await user.api.get('/v1/credit-cards')).body.data as Array<{ id: string; closing_date: string }>;
    expect(cards).toHaveLength(2);
    const review = async (id: string) =>
      (await user.api.get(`/v1/credit-cards/${id}`)).body.needs_closing_date_review as boolean;
    const [confirmed, changed] = cards;

    // the same day sent back through PUT confirms it
    expect(
      (await user.api.put(`/v1/credit-cards/${confirmed.id}`, { closing_date: confirmed.closing_date })).status,
    ).toBe(200);
    expect(await review(confirmed.id)).toBe(false);

    const path = `/v2/bills/closing-date/by-card/${changed.id}`;
    expect((await user.api.patch(path, { closing_day: 5, edition_type: 'THIS' })).status).toBe(200);
    expect(await review(changed.id)).toBe(true);
    expect((await user.api.patch(path, { closing_day: 6, edition_type: 'THIS_AND_NEXT' })).status).toBe(200);
    expect(await review(changed.id)).toBe(false);
  });

  it('when a read-only key imports, then 403 and nothing is written', async () => {
    const before = await counts();
    const response = await tenant.readOnly.post('/v1/open-banking/imports', payload('conn-ro'));
    expect(response.status).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['transactions', '2026-02-30', 'transactions.0.date'],
    ['transactions', '0000-01-01', 'transactions.0.date'],
    ['transactions', '9999-12-31T10:00:00Z', 'transactions.0.date'],
    ['investments', '2026-02-30', 'investments.0.snapshots.0.date'],
    ['investments', '1899-12-31', 'investments.0.snapshots.0.date'],
  ])(
    'when %s carry the date %s (not a real day from 1900 to 2999), then 400 naming it and nothing is written',
    async (list, date, field) => {
      const body = payload('conn-bad-date');
      if (list === 'transactions') body.transactions[0].date = date;
      else body.investments[0].snapshots[0].date = date;
      const before = await counts();
      const response = await tenant.api.post('/v1/open-banking/imports', body);
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field, message: expect.any(String) }]);
      expect(await counts()).toEqual(before);
    },
  );

  it('when a transaction names an account the connection never had, then the job fails with the reason and nothing of it is written', async () => {
    const body = payload('conn-poisoned');
    const transactions: Array<Record<string, unknown>> = body.transactions;
    transactions.push({ ...body.transactions[1], external_id: 'tx-9', account_external_id: 'acc-x' });
    const before = await counts();
    const { job } = await importAndWait(tenant.api, body);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/^Importação rejeitada, nada foi gravado: a transação 'tx-9' referencia a conta 'acc-x'/);
    expect(job.result).toBeNull();
    expect((await tenant.api.get(`/v1/jobs/${job.id}`)).body).toMatchObject({ state: 'failed', error: job.error });
    expect(await counts()).toEqual({ ...before, jobs: String(Number(before.jobs) + 1) });
    const bullJob = await stack.service('ledger').runtime.queues.get(QUEUES.imports).getJob(job.id);
    expect(bullJob?.attemptsMade).toBe(1);
    expect(await bullJob?.isFailed()).toBe(true);
  });

  it('when a job payload in the queue is malformed, then it fails at once without retries', async () => {
    const queue = stack.service('ledger').runtime.queues.get(QUEUES.imports);
    const added = await queue.add('open-banking.import', { background_job_id: 'nope' } as never, {
      jobId: 'poisoned-1',
    });
    await waitFor(() => added.isFailed());
    const job = await queue.getJob('poisoned-1');
    expect(job?.failedReason).toMatch(/^Tarefa de importação inválida/);
    expect(job?.attemptsMade).toBe(1);
  });

  it('when another user or another context asks for an import job, then 404', async () => {
    const other = await stack.tenant();
    expect((await other.api.get(`/v1/jobs/${firstJobId}`)).status).toBe(404);
    const company = await stack.companyClient(tenant.userId);
    expect((await company.api.get(`/v1/jobs/${firstJobId}`)).status).toBe(404);
  });

  it('when contexts list their connections, then each sees only its own, and the same bank id is a separate connection per context', async () => {
    const company = await stack.companyClient(tenant.userId);
    const { job } = await importAndWait(company.api, {
      connection: { id: 'conn-1', institution: 'Banco Exemplo' },
      accounts: [{ external_id: 'acc-1', name: 'Conta PJ', type: 'BUSINESS_BANK', subtype: null, balance: 10 }],
    });
    expect(job.state).toBe('completed');
    const mine = await tenant.readOnly.get('/v1/open-banking/connections');
    expect(mine.status).toBe(200);
    expect(mine.body.next_cursor).toBeNull();
    expect(mine.body.data).toEqual([
      {
        id: expect.any(String),
        external_id: 'conn-1',
        institution: 'Banco Exemplo',
        institution_id: null,
        status: 'ACTIVE',
        authorization_url: null,
        consent_expires_at: null,
        last_synced_at: null,
        last_sync_error: null,
        last_sync_skipped: [],
        last_sync_skipped_count: 0,
        last_import_job_id: null,
        revoked_at: null,
        profile_id: null,
        user_id: tenant.userId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const theirs = await company.api.get('/v1/open-banking/connections');
    expect(theirs.body.data).toHaveLength(1);
    expect(theirs.body.data[0]).toMatchObject({
      external_id: 'conn-1',
      profile_id: company.profileId,
      id: job.result.connection_id,
    });
    expect(theirs.body.data[0].id).not.toBe(mine.body.data[0].id);
    const other = await stack.tenant();
    expect((await other.api.get('/v1/open-banking/connections')).body.data).toEqual([]);
    expect((await tenant.api.get('/v1/open-banking/connections?status=REVOKED')).body.data).toEqual([]);
    expect((await tenant.api.get('/v1/open-banking/connections?status=GONE')).status).toBe(400);
  });
});
