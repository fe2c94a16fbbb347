import { importAndWait, importCompleted } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { ofxFile } from '../../../../test/support/statement-files.ts';
import { statementImported } from '../../../../test/support/statement-imports.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';

/** What the Open Finance connector (and any JSON client) hands the pipeline, one connection at a time. */
const connection = (id: string, transactions: unknown[], cards = false) => ({
  connection: { id, institution: 'Banco Exemplo' },
  accounts: [{ external_id: 'acc', name: 'Corrente', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 0 }],
  credit_cards: cards
    ? [
        {
          external_id: 'card',
          name: 'Cartão',
          account_external_id: 'acc',
          closing_day: 3,
          due_day: 10,
          limit: 1_000_000,
        },
      ]
    : [],
  transactions,
});

const entry = (external_id: string, fields: Record<string, unknown> = {}) => ({
  external_id,
  account_external_id: 'acc',
  amount: 12_345,
  date: '2026-03-10',
  is_expense: true,
  title: 'Mercado',
  ...fields,
});

describe('the import pipeline: pending and forecast entries, installments, foreign purchases, bills by due date, reconciliation', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  const rowsOf = (userId: string) =>
    stack.sql<{
      id: string;
      paid: boolean;
      amount: string;
      type: string;
      installments: number;
      installment_number: number | null;
      series_index: number | null;
      connected_transaction_id: string | null;
    }>(
      `select id, paid, amount::text, type, installments, installment_number, series_index, connected_transaction_id
       from ledger.transactions where user_id = $1 and deleted_at is null order by installment_number nulls first, date, id`,
      [userId],
    );

  it('when a PENDING entry is effected under the same id, then it is the same one entry, now paid', async () => {
    const tenant = await stack.tenant();
    await importCompleted(tenant.api, connection('c1', [entry('p1', { status: 'PENDING' })]));
    const [pending] = await rowsOf(tenant.userId);
    expect(pending.paid).toBe(false);
    const job = await importCompleted(tenant.api, connection('c1', [entry('p1', { status: 'BOOKED' })]));
    expect(job.result.transactions).toMatchObject({ created: 0, updated: 1 });
    expect(await rowsOf(tenant.userId)).toEqual([{ ...pending, paid: true }]);
    const record = (await tenant.api.get(`/v1/transactions/${pending.id}`)).body;
    expect(record).toMatchObject({ paid: true, paid_at: '2026-03-10T00:00:00.000Z' });
  });

  it('when a FORECAST or PENDING entry is effected under another id, then the matching rule makes it the same entry; a second effected one of the same amount is another entry', async () => {
    const tenant = await stack.tenant();
    await importCompleted(
      tenant.api,
      connection('c2', [
        entry('future-1', { status: 'FORECAST', date: '2026-03-20' }),
        entry('pend-1', { status: 'PENDING', amount: 500, date: '2026-03-11' }),
      ]),
    );
    expect((await rowsOf(tenant.userId)).map((row) => row.paid)).toEqual([false, false]);
    const job = await importCompleted(
      tenant.api,
      connection('c2', [
        entry('booked-1', { date: '2026-03-21' }),
        entry('booked-2', { amount: 500, date: '2026-03-12' }),
        entry('booked-3', { amount: 500, date: '2026-03-12' }),
      ]),
    );
    expect(job.result.transactions).toMatchObject({ created: 1, updated: 2 });
    const rows = await rowsOf(tenant.userId);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.paid)).toBe(true);
    // re-syncing the same window creates nothing
    const again = await importCompleted(
      tenant.api,
      connection('c2', [
        entry('booked-1', { date: '2026-03-21' }),
        entry('booked-2', { amount: 500, date: '2026-03-12' }),
        entry('booked-3', { amount: 500, date: '2026-03-12' }),
      ]),
    );
    expect(again.result.transactions).toMatchObject({ created: 0, updated: 0, duplicates: 3 });
    expect(await rowsOf(tenant.userId)).toHaveLength(3);
  });

  it('when installments of one purchase arrive over several syncs, then they form one PARCELLED series', async () => {
    const tenant = await stack.tenant();
    const installment = (number: number, date: string) =>
      entry(`inst-${number}`, {
        account_external_id: undefined,
        credit_card_external_id: 'card',
        amount: 10_000,
        date,
        title: 'Loja de móveis',
        installment: { series_key: 'charge-77', number, total: 3 },
      });
    await importCompleted(
      tenant.api,
      connection('c3', [installment(1, '2026-03-01'), installment(2, '2026-04-01')], true),
    );
    await importCompleted(tenant.api, connection('c3', [installment(3, '2026-05-01')], true));
    const rows = await rowsOf(tenant.userId);
    expect(rows).toHaveLength(3);
    const head = rows[0].id;
    expect(
      rows.map((row) => [
        row.type,
        row.installments,
        row.installment_number,
        row.series_index,
        row.connected_transaction_id,
      ]),
    ).toEqual([
      ['PARCELLED', 3, 1, 0, head],
      ['PARCELLED', 3, 2, 1, head],
      ['PARCELLED', 3, 3, 2, head],
    ]);
    const record = (await tenant.api.get(`/v1/transactions/${rows[2].id}`)).body;
    expect(record).toMatchObject({
      type: 'PARCELLED',
      installments: 3,
      installment_number: 3,
      connected_transaction_id: head,
    });
  });

  it('when a purchase is in another currency, then it is booked in BRL and keeps its original amount and currency', async () => {
    const tenant = await stack.tenant();
    await importCompleted(
      tenant.api,
      connection('c4', [
        entry('fx', { amount: 55_000, original_amount: '100.5', original_currency: 'usd', title: 'Amazon US' }),
      ]),
    );
    const [row] = await rowsOf(tenant.userId);
    expect((await tenant.api.get(`/v1/transactions/${row.id}`)).body).toMatchObject({
      amount: 55_000,
      currency: 'BRL',
      original_amount: '100.50',
      original_currency: 'USD',
    });
    const refused = await tenant.api.post(
      '/v1/open-banking/imports',
      connection('c4', [entry('fx2', { original_amount: '100.5' })]),
    );
    expect(refused.status).toBe(400);
  });

  it('when a card entry names its bill by due date, then it lands in that bill, created if needed, not in the bill of its date', async () => {
    const tenant = await stack.tenant();
    await importCompleted(
      tenant.api,
      connection(
        'c5',
        [
          entry('due', {
            account_external_id: undefined,
            credit_card_external_id: 'card',
            date: '2026-03-01',
            bill_due_date: '2026-05-10',
          }),
          entry('plain', { account_external_id: undefined, credit_card_external_id: 'card', date: '2026-03-01' }),
        ],
        true,
      ),
    );
    const bills = await stack.sql<{ external_id: string; due: string }>(
      `select t.external_id, to_char(b.due_date, 'YYYY-MM-DD') as due from ledger.transactions t
       join billing.bills b on b.id = t.bill_id where t.user_id = $1 order by t.external_id`,
      [tenant.userId],
    );
    expect(bills).toEqual([
      { external_id: 'due', due: '2026-05-10' },
      { external_id: 'plain', due: '2026-03-10' },
    ]);
  });

  it('when a connection and an OFX file bring the same entries of one account, then they are not doubled', async () => {
    const tenant = await stack.tenant();
    await importCompleted(
      tenant.api,
      connection('c6', [
        entry('n1', { amount: 4590, date: '2026-06-01' }),
        entry('n2', { amount: 1200, date: '2026-06-02' }),
      ]),
    );
    const [account] = await stack.sql<{ id: string }>(`select id from ledger.accounts where user_id = $1`, [
      tenant.userId,
    ]);
    const result = await statementImported(
      tenant.api,
      `/v1/accounts/${account.id}/statements`,
      ofxFile([
        { fitid: 'f1', date: '2026-06-01', amount: '-45,90', memo: 'Farmácia' },
        { fitid: 'f2', date: '2026-06-03', amount: '-12,00', memo: 'Padaria' },
        { fitid: 'f3', date: '2026-06-04', amount: '-7,00', memo: 'Banca' },
      ]),
    );
    expect(result).toMatchObject({ created: 1, duplicates: 2 });
    // and the connection's next sync of the same window finds every entry already there
    const sync = await importCompleted(
      tenant.api,
      connection('c6', [
        entry('n1', { amount: 4590, date: '2026-06-01' }),
        entry('n2', { amount: 1200, date: '2026-06-02' }),
        entry('n3', { amount: 700, date: '2026-06-04' }),
      ]),
    );
    expect(sync.result.transactions).toMatchObject({ created: 0 });
    expect(await rowsOf(tenant.userId)).toHaveLength(3);
  });

  describe('reconciliation of forecasts', () => {
    async function withForecast(auto: boolean) {
      const tenant: Tenant = await stack.tenant();
      const account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id as string;
      if (auto) await tenant.api.put('/v2/personal-config', { auto_reconcile_enabled: true });
      const forecast = (
        await tenant.api.post('/v1/transactions', {
          title: 'Aluguel',
          amount: 250_000,
          date: '2026-08-05',
          is_expense: true,
          paid: false,
          account_id: account,
        })
      ).body.id as string;
      const result = await statementImported(
        tenant.api,
        `/v1/accounts/${account}/statements`,
        ofxFile([{ fitid: 'r1', date: '2026-08-07', amount: '-2.500,00', memo: 'TED Imobiliária' }]),
      );
      const [real] = await stack.sql<{ id: string }>(
        `select id from ledger.transactions where account_id = $1 and external_id is not null`,
        [account],
      );
      return { tenant, account, forecast, real: real.id, result };
    }

    it('when auto-reconcile is on, then the imported entry reconciles the forecast, and unreconcile undoes it', async () => {
      const { tenant, forecast, real, result } = await withForecast(true);
      expect(result).toMatchObject({ created: 1, reconciled: 1, reconciliation_suggestions: 0 });
      expect((await tenant.api.get(`/v1/transactions/${forecast}`)).body).toMatchObject({
        paid: false,
        reconciled_with_transaction_id: real,
        reconciled_by_user_id: tenant.userId,
        reconciled_at: expect.any(String),
      });
      const undone = await tenant.api.post(`/v1/transactions/${real}/unreconcile`);
      expect(undone.status).toBe(200);
      expect(undone.body).toMatchObject({
        id: forecast,
        reconciled_at: null,
        reconciled_with_transaction_id: null,
        reconciled_by_user_id: null,
      });
      expect((await tenant.api.post(`/v1/transactions/${forecast}/unreconcile`)).status).toBe(409);
    });

    it('when auto-reconcile is off, then the pair is a suggestion the user accepts; another forecast cannot take the same entry', async () => {
      const { tenant, account, forecast, real, result } = await withForecast(false);
      expect(result).toMatchObject({ created: 1, reconciled: 0, reconciliation_suggestions: 1 });
      const suggestions = (await tenant.api.get('/v1/reconciliation/suggestions')).body;
      expect(suggestions).toMatchObject({
        data: [{ forecast: { id: forecast }, transaction: { id: real } }],
        next_cursor: null,
      });
      const accepted = await tenant.api.post(`/v1/transactions/${forecast}/reconcile`, { transaction_id: real });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({
        id: forecast,
        reconciled_with_transaction_id: real,
        reconciled_by_user_id: tenant.userId,
      });
      expect((await tenant.api.get('/v1/reconciliation/suggestions')).body.data).toEqual([]);
      const second = (
        await tenant.api.post('/v1/transactions', {
          title: 'Outro',
          amount: 250_000,
          date: '2026-08-06',
          is_expense: true,
          paid: false,
          account_id: account,
        })
      ).body.id;
      expect((await tenant.api.post(`/v1/transactions/${second}/reconcile`, { transaction_id: real })).status).toBe(
        409,
      );
      expect((await tenant.api.post(`/v1/transactions/${forecast}/reconcile`, { transaction_id: real })).status).toBe(
        409,
      );
      const other = await stack.tenant();
      expect((await other.api.post(`/v1/transactions/${second}/reconcile`, { transaction_id: real })).status).toBe(404);
      // two forecasts racing for one entry: exactly one wins
      await tenant.api.post(`/v1/transactions/${forecast}/unreconcile`);
      const race = await Promise.all(
        [forecast, second].map((id) => tenant.api.post(`/v1/transactions/${id}/reconcile`, { transaction_id: real })),
      );
      expect(race.map((response) => response.status).sort()).toEqual([200, 409]);
      const [{ n }] = await stack.sql<{ n: number }>(
        'select count(*)::int as n from ledger.transactions where reconciled_with_transaction_id = $1',
        [real],
      );
      expect(n).toBe(1);
    });
  });

  it('when an enabled rule matches, then entries of a statement file are categorized by it', async () => {
    const tenant = await stack.tenant();
    const account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id as string;
    await statementImported(
      tenant.api,
      `/v1/accounts/${account}/statements`,
      ofxFile([{ fitid: 'u1', date: '2026-09-01', amount: '-20,00', memo: 'UBER TRIP' }]),
    );
    const [source] = await stack.sql<{ id: string }>(`select id from ledger.transactions where account_id = $1`, [
      account,
    ]);
    const category = (await tenant.api.post('/v1/categories', { name: 'Transporte app', is_expense: true })).body.id;
    expect(
      (await tenant.api.post('/v1/categorization-rules', { source_transaction_id: source.id, category_id: category }))
        .status,
    ).toBe(201);
    const result = await statementImported(
      tenant.api,
      `/v1/accounts/${account}/statements`,
      ofxFile([{ fitid: 'u2', date: '2026-09-02', amount: '-31,00', memo: 'UBER TRIP' }]),
    );
    expect(result).toMatchObject({ created: 1, categorized: 1 });
  });

  it('when a JSON import names an installment beyond its total or a due date on an account entry, then 400', async () => {
    const tenant = await stack.tenant();
    const bad = await importAndWait(tenant.api, connection('c9', [])).then(() =>
      tenant.api.post(
        '/v1/open-banking/imports',
        connection('c9', [
          entry('x', { installment: { series_key: 'k', number: 4, total: 3 } }),
          entry('y', { bill_due_date: '2026-05-10' }),
        ]),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'transactions.0.installment',
      'transactions.1',
    ]);
  });

  describe('a re-import keeps what the user edited', () => {
    const bankFeed = (title: string, description: string, amount: number) => ({
      connection: { id: 'conn-edits', institution: 'Banco Exemplo' },
      accounts: [
        { external_id: 'acc-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1 },
      ],
      transactions: [
        {
          external_id: 'tx-edited',
          account_external_id: 'acc-1',
          amount,
          date: '2026-03-05',
          is_expense: true,
          title,
          description,
        },
        {
          external_id: 'tx-untouched',
          account_external_id: 'acc-1',
          amount: 500,
          date: '2026-03-06',
          is_expense: true,
          title,
          description,
        },
      ],
    });
    const byExternalId = async (userId: string) =>
      Object.fromEntries(
        (
          await stack.sql<{ external_id: string; id: string; title: string; description: string; amount: string }>(
            `select external_id, id, title, description, amount::text as amount, category_id,
               (select array_agg(tag_id) from ledger.transaction_tags g where g.transaction_id = t.id) as tags
             from ledger.transactions t where user_id = $1 and external_id is not null`,
            [userId],
          )
        ).map((row) => [row.external_id, row]),
      );

    it('when the user edited title, description, category and tags, then a re-import updates only the bank fields the user left alone', async () => {
      const person = await stack.tenant();
      await importCompleted(person.api, bankFeed('PAG*JOSE', 'COMPRA CARTAO', 4_000));
      const before = await byExternalId(person.userId);
      const tag = (await person.api.post('/v1/tags', { name: 'Casa' })).body.id;
      const edit = await person.api.put(
        `/v2/transactions/duplicate/update-many?transactions_ids=${before['tx-edited'].id}`,
        {
          title: 'Feira do José',
          description: 'Verduras',
          category_id: ALIMENTACAO,
          tag_ids: [tag],
        },
      );
      expect(edit.status).toBe(200);

      await importCompleted(person.api, bankFeed('PAG*JOSE LTDA', 'COMPRA NO CARTAO', 4_200));
      const after = await byExternalId(person.userId);
      expect(after['tx-edited']).toMatchObject({
        title: 'Feira do José',
        description: 'Verduras',
        amount: '4200',
        category_id: ALIMENTACAO,
        tags: [tag],
      });
      // the bank's data still updates a transaction the user never edited
      expect(after['tx-untouched']).toMatchObject({ title: 'PAG*JOSE LTDA', description: 'COMPRA NO CARTAO' });
    });
  });
});
