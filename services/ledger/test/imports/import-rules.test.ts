import { randomUUID } from 'node:crypto';
import { importCompleted } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { ofxFile } from '../../../../test/support/statement-files.ts';
import { statementImported } from '../../../../test/support/statement-imports.ts';

/** The bill due on 2026-02-10 of a card closing on the 3rd: purchases from 2026-01-03 to 2026-02-02. */
const DUE = '2026-02-10';
const account = (external_id: string) => ({
  external_id,
  name: `Conta ${external_id}`,
  type: 'PERSONAL_BANK',
  subtype: 'CHECKING_ACCOUNT',
  balance: 100_000,
});
const card = (bills: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  external_id: 'cartao',
  name: 'Cartão Ouro',
  account_external_id: 'conta',
  closing_day: 3,
  due_day: 10,
  limit: 500_000,
  bills,
  ...extra,
});
const purchase = (external_id: string, amount: number, date = '2026-01-20') => ({
  external_id,
  credit_card_external_id: 'cartao',
  amount,
  date,
  is_expense: true,
  title: `Compra ${external_id}`,
  bill_due_date: DUE,
});
const debit = (external_id: string, amount: number, date: string, title = 'PAGAMENTO FATURA CARTAO') => ({
  external_id,
  account_external_id: 'conta',
  amount,
  date,
  is_expense: true,
  title,
});

/**
 * The pipeline's rules that make one picture of the money (docs/decisions.md §9), through the gateway: bill payments
 * in either order and from any source, own transfers, investment moves, refunds, repeated ids, and the undo.
 */
describe('the import pipeline’s rules: one picture whatever the source and order', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
    // the bills of these dates closed and fell due long before this instant, whatever today is
    stack.setNow('2026-03-20T15:00:00.000Z');
  });
  afterAll(() => stack?.stop());

  const connection = (id: string, body: Record<string, unknown>) => ({
    connection: { id, institution: 'Banco Exemplo' },
    ...body,
  });
  const entries = async (tenant: Tenant) =>
    (await tenant.api.get('/v1/transactions?limit=500&start_date=2025-01-01&end_date=2026-12-31')).body.data as Array<
      Record<string, any>
    >;
  const billOf = async (tenant: Tenant) => {
    const { id } = (await tenant.api.get('/v1/credit-cards')).body.data[0];
    return (await tenant.api.get(`/v2/bills/show-by-card/${id}?date=${DUE}`)).body.bill;
  };
  const payments = (rows: Array<Record<string, any>>) => rows.filter((row) => row.is_bill_payment);

  it('when the account comes first and the card’s bill is reported paid later, then the debit becomes that bill’s payment and the bill is paid', async () => {
    const tenant = await stack.tenant();
    const id = randomUUID();
    await importCompleted(
      tenant.api,
      connection(id, { accounts: [account('conta')], transactions: [debit('d1', 90_000, DUE)] }),
    );
    await importCompleted(
      tenant.api,
      connection(id, {
        credit_cards: [card([{ due_date: DUE, payments: [{ date: DUE, amount: 90_000 }] }])],
        transactions: [purchase('p1', 60_000), purchase('p2', 30_000)],
      }),
    );
    const bill = await billOf(tenant);
    expect(bill).toMatchObject({ value: 90_000, paid: 90_000, balance: 0, status: 'PAID' });
    const rows = await entries(tenant);
    expect(payments(rows)).toEqual([
      expect.objectContaining({ title: 'PAGAMENTO FATURA CARTAO', account_id: expect.any(String), bill_id: bill.id }),
    ]);
    expect(rows).toHaveLength(3);
    // card spending counts once: the payment only by the preference
    const month = '?start_date=2026-02-01&end_date=2026-02-28';
    expect((await tenant.api.get(`/v1/reports/summary${month}`)).body.expenses).toBe(0);
    await tenant.api.put('/v2/personal-config', { include_bill_payments: true });
    expect((await tenant.api.get(`/v1/reports/summary${month}`)).body.expenses).toBe(90_000);
  });

  it('when the card’s paid bill comes first, then it is paid at once, and the debit arriving later joins that payment', async () => {
    const tenant = await stack.tenant();
    const id = randomUUID();
    await importCompleted(
      tenant.api,
      connection(id, {
        accounts: [account('conta')],
        credit_cards: [card([{ due_date: DUE, payments: [{ date: DUE, amount: 90_000 }] }])],
        transactions: [purchase('p1', 90_000)],
      }),
    );
    expect(await billOf(tenant)).toMatchObject({ paid: 90_000, status: 'PAID' });
    expect(payments(await entries(tenant))).toEqual([
      expect.objectContaining({ credit_card_id: expect.any(String), account_id: null, amount: 90_000 }),
    ]);
    await importCompleted(tenant.api, connection(id, { transactions: [debit('d1', 90_000, '2026-02-11')] }));
    const rows = await entries(tenant);
    expect(payments(rows)).toEqual([
      expect.objectContaining({
        title: 'PAGAMENTO FATURA CARTAO',
        account_id: expect.any(String),
        credit_card_id: null,
        date: '2026-02-11T00:00:00.000Z',
      }),
    ]);
    expect(rows).toHaveLength(2);
    expect(await billOf(tenant)).toMatchObject({ paid: 90_000, status: 'PAID' });
    // again: nothing new
    await importCompleted(tenant.api, connection(id, { transactions: [debit('d1', 90_000, '2026-02-11')] }));
    expect(await entries(tenant)).toHaveLength(2);
  });

  it('when an OFX statement brought the debit and a connection then reports the bill paid, then they are one payment; the card statement’s payment line too', async () => {
    const tenant = await stack.tenant();
    const id = randomUUID();
    await importCompleted(tenant.api, connection(id, { accounts: [account('conta')] }));
    const [{ id: accountId }] = (await tenant.api.get('/v1/accounts')).body.data;
    await statementImported(
      tenant.api,
      `/v1/accounts/${accountId}/statements`,
      ofxFile([{ fitid: 'f1', date: '2026-02-09', amount: '-900.00', memo: 'PAG FATURA CARTAO OURO' }]),
    );
    await importCompleted(
      tenant.api,
      connection(id, {
        credit_cards: [card([{ due_date: DUE, payments: [{ date: DUE, amount: 90_000 }] }])],
        transactions: [purchase('p1', 90_000)],
      }),
    );
    const { id: cardId } = (await tenant.api.get('/v1/credit-cards')).body.data[0];
    // the card's own statement lists the payment as a credit line: the same payment
    await statementImported(
      tenant.api,
      `/v1/credit-cards/${cardId}/statements`,
      ofxFile([{ fitid: 'c1', date: DUE, amount: '900.00', memo: 'PAGAMENTO RECEBIDO', type: 'PAYMENT' }], {
        kind: 'card',
      }),
    );
    expect(payments(await entries(tenant))).toEqual([
      expect.objectContaining({ account_id: accountId, title: 'PAG FATURA CARTAO OURO', amount: 90_000 }),
    ]);
    expect(await billOf(tenant)).toMatchObject({ value: 90_000, paid: 90_000, status: 'PAID' });
  });

  it('when the bank reports part of a bill paid, then it is paid in part and owes the rest', async () => {
    const tenant = await stack.tenant();
    await importCompleted(
      tenant.api,
      connection(randomUUID(), {
        accounts: [account('conta')],
        credit_cards: [card([{ due_date: DUE, payments: [{ date: DUE, amount: 40_000 }] }])],
        transactions: [purchase('p1', 90_000), debit('d1', 40_000, DUE)],
      }),
    );
    expect(await billOf(tenant)).toMatchObject({ value: 90_000, paid: 40_000, balance: 50_000, status: 'OVERDUE' });
    expect(payments(await entries(tenant))).toHaveLength(1);
  });

  it('when the user says a payment match is wrong, then the debit is a plain expense again, the bill stays paid, and no later import links it again', async () => {
    const tenant = await stack.tenant();
    const id = randomUUID();
    const body = connection(id, {
      accounts: [account('conta')],
      credit_cards: [card([{ due_date: DUE, payments: [{ date: DUE, amount: 90_000 }] }])],
      transactions: [purchase('p1', 90_000), debit('d1', 90_000, DUE, 'PIX PARA JOAO')],
    });
    await importCompleted(tenant.api, body);
    const [matched] = payments(await entries(tenant));
    expect(matched).toMatchObject({ title: 'PIX PARA JOAO' });
    const undone = await tenant.api.post(`/v1/transactions/${matched.id}/unlink`);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ id: matched.id, is_bill_payment: false, bill_id: null });
    const check = async () => {
      const rows = await entries(tenant);
      expect(payments(rows)).toEqual([expect.objectContaining({ account_id: null, amount: 90_000 })]);
      expect(rows.find((row) => row.id === matched.id)).toMatchObject({ is_bill_payment: false });
      expect(rows).toHaveLength(3);
      expect(await billOf(tenant)).toMatchObject({ paid: 90_000, status: 'PAID' });
    };
    await check();
    await importCompleted(tenant.api, body);
    await check();
    expect((await tenant.api.post(`/v1/transactions/${matched.id}/unlink`)).status).toBe(409);
  });

  it('when money leaves one imported account for another, then it is one transfer; the undo makes two plain entries for good', async () => {
    const tenant = await stack.tenant();
    const leg = { amount: 25_000, title: 'PIX ENTRE CONTAS', operation_type: 'PIX' };
    const body = connection(randomUUID(), {
      accounts: [account('conta'), account('poupanca')],
      transactions: [
        { external_id: 'out', account_external_id: 'conta', date: '2026-02-14', is_expense: true, ...leg },
        { external_id: 'in', account_external_id: 'poupanca', date: '2026-02-15', is_expense: false, ...leg },
        // the same amount as a salary is not a transfer
        { ...debit('sal', 25_000, '2026-02-15', 'SALARIO'), is_expense: false, operation_type: 'FOLHA_PAGAMENTO' },
      ],
    });
    await importCompleted(tenant.api, body);
    const legs = (await entries(tenant)).filter((row) => row.type === 'TRANSFER');
    expect(legs).toHaveLength(2);
    const outgoing = legs.find((row) => row.is_expense);
    expect(legs.map((row) => row.connected_transaction_id)).toEqual([outgoing?.id, outgoing?.id]);
    const month = '?start_date=2026-02-01&end_date=2026-02-28';
    expect((await tenant.api.get(`/v1/reports/summary${month}`)).body).toMatchObject({ income: 25_000, expenses: 0 });

    expect((await tenant.api.post(`/v1/transactions/${outgoing?.id}/unlink`)).status).toBe(200);
    await importCompleted(tenant.api, body);
    const rows = await entries(tenant);
    expect(rows.filter((row) => row.type === 'TRANSFER')).toEqual([]);
    expect(rows).toHaveLength(3);
    expect((await tenant.api.get(`/v1/reports/summary${month}`)).body).toMatchObject({
      income: 50_000,
      expenses: 25_000,
    });
  });

  it('when two statement files bring the two legs, then the second file’s leg makes the transfer', async () => {
    const tenant = await stack.tenant();
    const ids: string[] = [];
    for (const name of ['Corrente', 'Poupança'])
      ids.push((await tenant.api.post('/v1/accounts', { name, logo: '341' })).body.id);
    const file = (amount: string) =>
      ofxFile([{ fitid: 'x1', date: '2026-02-14', amount, memo: 'TED MESMA TITULARIDADE', type: 'XFER' }]);
    await statementImported(tenant.api, `/v1/accounts/${ids[0]}/statements`, file('-1234.56'));
    await statementImported(tenant.api, `/v1/accounts/${ids[1]}/statements`, file('1234.56'));
    expect((await entries(tenant)).map((row) => [row.type, row.is_expense]).sort()).toEqual([
      ['TRANSFER', false],
      ['TRANSFER', true],
    ]);
  });

  it('when money goes to the holder’s own account elsewhere or into an investment, then it is a one-leg transfer; a yield stays income', async () => {
    const tenant = await stack.tenant();
    await importCompleted(tenant.api, {
      connection: { id: randomUUID(), institution: 'Banco Exemplo', holder_document: '76109277673' },
      accounts: [account('conta')],
      transactions: [
        { ...debit('own', 70_000, '2026-02-20', 'PIX ENVIADO'), counterparty_document: '76109277673' },
        { ...debit('other', 70_000, '2026-02-21', 'PIX ENVIADO'), counterparty_document: '52998224725' },
        debit('cdb', 100_000, '2026-02-22', 'APLICACAO CDB 110% CDI'),
        {
          ...debit('resgate', 30_000, '2026-02-23', 'RESGATE FUNDO DI'),
          is_expense: false,
          operation_type: 'RESGATE_APLIC_FINANCEIRA',
        },
        {
          ...debit('yield', 1_234, '2026-02-24', 'RENDIMENTO POUPANCA'),
          is_expense: false,
          operation_type: 'RENDIMENTO_APLIC_FINANCEIRA',
        },
      ],
    });
    const types = Object.fromEntries((await entries(tenant)).map((row) => [`${row.title}:${row.amount}`, row.type]));
    expect(types).toEqual({
      'PIX ENVIADO:70000': expect.any(String),
      'APLICACAO CDB 110% CDI:100000': 'TRANSFER',
      'RESGATE FUNDO DI:30000': 'TRANSFER',
      'RENDIMENTO POUPANCA:1234': 'FIXED',
    });
    const pix = (await entries(tenant))
      .filter((row) => row.title === 'PIX ENVIADO')
      .map((row) => row.type)
      .sort();
    expect(pix).toEqual(['FIXED', 'TRANSFER']);
  });

  it('when a card is refunded or gets cashback, then its bill holds less', async () => {
    const tenant = await stack.tenant();
    await importCompleted(
      tenant.api,
      connection(randomUUID(), {
        accounts: [account('conta')],
        credit_cards: [card()],
        transactions: [
          purchase('p1', 50_000),
          {
            ...purchase('estorno', 12_000, '2026-01-25'),
            is_expense: false,
            title: 'ESTORNO LOJA',
            operation_type: 'ESTORNO',
          },
          { ...purchase('cash', 500, '2026-01-26'), is_expense: false, title: 'CASHBACK', operation_type: 'CASHBACK' },
        ],
      }),
    );
    expect(await billOf(tenant)).toMatchObject({ value: 37_500 });
    const { id } = (await tenant.api.get('/v1/credit-cards')).body.data[0];
    const credits = (await tenant.api.get(`/v2/bills/show-by-card/${id}/transactions?date=${DUE}&is_expense=false`))
      .body;
    expect(credits.transactions.map((row: { title: string }) => row.title).sort()).toEqual([
      'CASHBACK',
      'ESTORNO LOJA',
    ]);
  });

  it('when one id names two different entries, or two accounts share an id, then each entry exists once, also after another import', async () => {
    const tenant = await stack.tenant();
    const fee = (amount: number, account_external_id = 'conta') => ({
      external_id: 'tarifa',
      account_external_id,
      amount,
      date: '2026-02-12',
      is_expense: true,
      title: 'TARIFA',
    });
    const body = connection(randomUUID(), {
      accounts: [account('conta'), account('outra')],
      // the same entry listed twice is one entry
      transactions: [fee(50), fee(26), fee(50), fee(50, 'outra')],
    });
    const first = await importCompleted(tenant.api, body);
    expect(first.result.transactions).toMatchObject({ received: 4, created: 3 });
    const again = await importCompleted(tenant.api, body);
    expect(again.result.transactions).toMatchObject({ created: 0 });
    expect((await entries(tenant)).map((row) => row.amount).sort()).toEqual([26, 50, 50]);
  });

  it('when a bank shares only a card, then it follows the default account, or with none waits for one, its purchases imported', async () => {
    const tenant = await stack.tenant();
    const id = randomUUID();
    const alone = { ...card(), account_external_id: undefined };
    const first = await importCompleted(
      tenant.api,
      connection(id, { credit_cards: [alone], transactions: [purchase('p1', 12_000)] }),
    );
    expect(first.result).toMatchObject({ credit_cards: { created: 1 }, transactions: { created: 1 } });
    expect((await tenant.api.get('/v1/credit-cards')).body.data).toEqual([
      expect.objectContaining({ name: 'Cartão Ouro', account_id: null }),
    ]);
    expect(await billOf(tenant)).toMatchObject({ value: 12_000 });
    const { id: accountId } = (await tenant.api.post('/v1/accounts', { name: 'Corrente', logo: '341' })).body;
    await importCompleted(tenant.api, connection(id, { credit_cards: [alone] }));
    expect((await tenant.api.get('/v1/credit-cards')).body.data[0]).toMatchObject({ account_id: accountId });
  });

  it('when the account’s import and the card’s race many times, then each bill payment exists once', async () => {
    const tenant = await stack.tenant();
    const id = randomUUID();
    await importCompleted(tenant.api, connection(id, { accounts: [account('conta')], credit_cards: [card()] }));
    for (let round = 1; round <= 5; round++) {
      const due = `2026-0${round + 1}-10`;
      await Promise.all([
        importCompleted(tenant.api, connection(id, { transactions: [debit(`d${round}`, 10_000 + round, due)] })),
        importCompleted(
          tenant.api,
          connection(id, {
            credit_cards: [card([{ due_date: due, payments: [{ date: due, amount: 10_000 + round }] }])],
          }),
        ),
      ]);
    }
    const rows = payments(await entries(tenant));
    expect(rows.map((row) => [row.amount, row.account_id !== null])).toEqual(
      [1, 2, 3, 4, 5].map((round) => [10_000 + round, true]),
    );
  });
});
