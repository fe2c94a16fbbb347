import type { BankCardTransaction, BankSnapshot } from '../../src/domain/open-banking/bank-connector.ts';
import { parseStoredPayload } from '../../src/domain/open-banking/import-payload.ts';
import { mapCard, mapSnapshot } from '../../src/domain/open-banking/open-finance-mapping.ts';

const brl = (amount: string) => ({ amount, currency: 'BRL' });
const accountTx = (id: string, fields: Partial<BankSnapshot['accounts'][number]['transactions'][number]> = {}) => ({
  transactionId: id,
  completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA' as const,
  creditDebitType: 'DEBITO' as const,
  transactionName: 'PIX PADARIA',
  type: 'PIX',
  transactionAmount: brl('10.00'),
  transactionDateTime: '2026-03-10T15:00:00.000Z',
  ...fields,
});
const cardTx = (id: string, fields: Partial<BankCardTransaction> = {}): BankCardTransaction => ({
  transactionId: id,
  transactionName: 'LIVRARIA',
  creditDebitType: 'DEBITO',
  transactionType: 'PAGAMENTO',
  paymentType: 'A_VISTA',
  brazilianAmount: brl('45.90'),
  amount: brl('45.90'),
  transactionDateTime: '2026-02-20T16:00:00.000Z',
  billPostDate: '2026-03-03',
  ...fields,
});
const notebook = (id: string, part: number, postDate: string, billId: string) =>
  cardTx(id, {
    billId,
    transactionName: 'NOTEBOOK LOJA',
    paymentType: 'A_PRAZO',
    chargeIdentificator: part,
    chargeNumber: 6,
    brazilianAmount: brl('500.00'),
    amount: brl('500.00'),
    transactionDateTime: '2025-12-05T16:00:00.000Z',
    billPostDate: postDate,
  });

const snapshot: BankSnapshot = {
  accounts: [
    {
      accountId: 'conta-1',
      type: 'CONTA_DEPOSITO_A_VISTA',
      compeCode: '999',
      number: '0012345678',
      brandName: 'Banco Sandbox',
      balance: brl('1500.25'),
      read: { from: '2026-02-10', to: '2026-04-11' },
      transactions: [
        accountTx('t-cents', { transactionAmount: brl('0.10') }),
        accountTx('t-big', {
          creditDebitType: 'CREDITO',
          type: 'TED',
          transactionAmount: brl('1234567.89'),
          partieCnpjCpf: '33000167000101',
          partiePersonType: 'PESSOA_JURIDICA',
        }),
        accountTx('t-person', { partieCnpjCpf: '52998224725', partiePersonType: 'PESSOA_NATURAL' }),
        accountTx('t-night', { transactionDateTime: '2026-03-10T02:30:00.000Z' }),
        accountTx('t-pending', { completedAuthorisedPaymentType: 'TRANSACAO_PROCESSANDO' }),
        accountTx('t-future', {
          completedAuthorisedPaymentType: 'LANCAMENTO_FUTURO',
          type: 'BOLETO',
          transactionDateTime: '2026-03-20T12:00:00.000Z',
        }),
        accountTx('t-stale', { completedAuthorisedPaymentType: 'LANCAMENTO_FUTURO', type: 'BOLETO' }),
        accountTx('t-zero', { transactionAmount: brl('0.00') }),
        accountTx('t-comma', { transactionAmount: { amount: '12,3456', currency: 'BRL' } }),
        accountTx('t-short', { transactionDateTime: '2026-3-5T15:00:00Z' }),
        accountTx('t-bad', { transactionAmount: brl('doze') }),
        accountTx('t-own', { partieCnpjCpf: '76109277673', partiePersonType: 'PESSOA_NATURAL' }),
        accountTx('t-yield', {
          creditDebitType: 'CREDITO',
          type: 'RENDIMENTO_APLIC_FINANCEIRA',
          partieCnpjCpf: '99999999000191',
        }),
        accountTx(' t-blank ', { transactionName: 'PIX COM ID ESPAÇADO' }),
        accountTx('fee', { transactionAmount: brl('0.50'), type: 'TARIFA_SERVICOS_AVULSOS' }),
        accountTx('fee', { transactionAmount: brl('0.26'), type: 'TARIFA_SERVICOS_AVULSOS' }),
      ],
    },
  ],
  cards: [
    {
      creditCardAccountId: 'cartao-1',
      name: 'Sandbox Platinum',
      brandName: 'Banco Sandbox',
      limit: brl('10000.00'),
      available: { amount: '-125.5', currency: 'BRL' },
      bills: [
        {
          billId: 'fatura-jan',
          dueDate: '2026-01-10',
          total: brl('500.00'),
          payments: [{ paymentDate: '2026-01-10', amount: '500.00' }],
          financeCharges: [],
          transactions: [notebook('n1', 1, '2026-01-03', 'fatura-jan')],
        },
        {
          billId: 'fatura-fev',
          dueDate: '2026-2-10',
          // its entries hold 860.60 (refunds and cashback counted back); IOF and interest only in financeCharges
          total: brl('881.88'),
          financeCharges: [
            { type: 'IOF', amount: '1.56' },
            { type: 'JUROS_MORA_ATRASO_PAGAMENTO_FATURA', amount: '19.72' },
          ],
          payments: [
            { paymentDate: '2026-02-09', amount: '900.00' },
            { paymentDate: '2026-02-15', amount: '100.0000' },
          ],
          transactions: [
            notebook('n2', 2, '2026-02-03', 'fatura-fev'),
            cardTx('abroad', {
              billId: 'fatura-fev',
              transactionName: 'AMAZON.COM US',
              billPostDate: '2026-02-03',
              brazilianAmount: brl('275.40'),
              amount: { amount: '50.00', currency: 'USD' },
            }),
            cardTx('paid', {
              billId: 'fatura-fev',
              transactionName: 'PAGAMENTO RECEBIDO',
              creditDebitType: 'CREDITO',
              paymentType: undefined,
              brazilianAmount: brl('900.00'),
              transactionDateTime: '2026-02-09T11:00:00.000Z',
            }),
            cardTx('paid-unknown', {
              billId: 'fatura-fev',
              transactionName: 'PAGTO FATURA',
              creditDebitType: 'CREDITO',
              paymentType: undefined,
              brazilianAmount: brl('42.00'),
            }),
            cardTx('cashback', {
              billId: 'fatura-fev',
              transactionType: 'CASHBACK',
              paymentType: undefined,
              creditDebitType: 'CREDITO',
              brazilianAmount: brl('12.50'),
            }),
            cardTx('refund', {
              billId: 'fatura-fev',
              transactionType: 'ESTORNO',
              paymentType: undefined,
              creditDebitType: 'DEBITO',
              brazilianAmount: brl('20.00'),
            }),
            // institutions that mark every card entry CREDITO: the type says what it is
            cardTx('fee', {
              billId: 'fatura-fev',
              transactionType: 'TARIFA',
              paymentType: undefined,
              creditDebitType: 'CREDITO',
              feeType: 'ANUIDADE',
              brazilianAmount: brl('14.99'),
            }),
            cardTx('fee', {
              billId: 'fatura-fev',
              transactionType: 'TARIFA',
              paymentType: undefined,
              creditDebitType: 'CREDITO',
              feeType: 'ANUIDADE',
              brazilianAmount: brl('24.99'),
            }),
            cardTx('zero-brl', { billId: 'fatura-fev', brazilianAmount: brl('0.0000'), amount: brl('77.7205') }),
          ],
        },
      ],
      open: [
        cardTx('open-1', { billPostDate: '0001-01-01' }),
        notebook('n3', 3, '0001-01-01', 'fatura-mar'),
        cardTx('no-currency', { brazilianAmount: { amount: 'x', currency: 'BRL' } }),
      ],
    },
  ],
  investments: [
    {
      family: 'treasure-titles',
      investmentId: 'tesouro-1',
      name: 'Tesouro Selic 2029',
      kind: 'TREASURY',
      brandName: 'Banco Sandbox',
      grossAmount: brl('25123.4567'),
    },
  ],
  skipped: [{ record: 'lançamento da conta conta-1 x', reason: 'fora do padrão Open Finance: falta currency' }],
};

describe('mapping an Open Finance sync to the import payload', () => {
  const { payload, skipped, listed } = mapSnapshot(snapshot, {
    connectionId: 'conn-1',
    institution: 'Banco Sandbox',
    timeZone: 'America/Sao_Paulo',
    today: '2026-03-12',
    holderDocument: '76109277673',
  });
  const all = (id: string) => payload.transactions.filter((t) => t.external_id === id);
  const tx = (id: string) => all(id)[0];

  it('then the payload passes the JSON import’s own schema', () => {
    expect(() => parseStoredPayload(payload)).not.toThrow();
    expect(payload.connection).toEqual({ id: 'conn-1', institution: 'Banco Sandbox', holder_document: '76109277673' });
  });

  it('then accounts carry the balance in cents, the subtype and the COMPE code', () => {
    expect(payload.accounts).toEqual([
      {
        external_id: 'conta-1',
        name: 'Banco Sandbox 0012345678',
        type: 'PERSONAL_BANK',
        subtype: 'CHECKING_ACCOUNT',
        balance: 150025,
        logo: '999',
      },
    ]);
  });

  it('then amounts are exact cents (a decimal comma too) and creditDebitType gives an account entry’s direction', () => {
    expect(tx('t-cents')).toMatchObject({ amount: 10, is_expense: true });
    expect(tx('t-big')).toMatchObject({ amount: 123456789, is_expense: false });
    expect(tx('t-comma')).toMatchObject({ amount: 1235 });
    expect(tx('t-zero')).toBeUndefined();
  });

  it('then one entry the documents do not allow is left out with its reason, and the others are mapped', () => {
    expect(tx('t-bad')).toBeUndefined();
    expect(skipped).toEqual(
      expect.arrayContaining([
        { record: 'lançamento da conta conta-1 x', reason: 'fora do padrão Open Finance: falta currency' },
        { record: 'lançamento t-bad da conta conta-1', reason: expect.stringContaining('valor inválido') },
        { record: 'lançamento t-zero da conta conta-1', reason: 'valor zero' },
        { record: 'lançamento no-currency do cartão cartao-1', reason: expect.stringContaining('valor inválido') },
      ]),
    );
  });

  it('then the counterparty’s CNPJ fills the merchant fields of a payment, not of the bank’s own entries; a document is kept', () => {
    expect(tx('t-big')).toMatchObject({
      merchant_cnpj: '33000167000101',
      merchant_name: 'PIX PADARIA',
      operation_type: 'TED',
      counterparty_document: '33000167000101',
    });
    expect(tx('t-person')).toMatchObject({ merchant_cnpj: null, merchant_name: null, operation_type: 'PIX' });
    expect(tx('t-own')).toMatchObject({ counterparty_document: '76109277673', merchant_cnpj: null });
    expect(tx('t-yield')).toMatchObject({ merchant_cnpj: null, operation_type: 'RENDIMENTO_APLIC_FINANCEIRA' });
  });

  it('then the booking day is the context’s calendar day, single-digit date parts read', () => {
    expect(tx('t-cents')?.date).toBe('2026-03-10');
    expect(tx('t-night')?.date).toBe('2026-03-09');
    expect(tx('t-short')?.date).toBe('2026-03-05');
  });

  it('then processing entries are PENDING, scheduled ones FORECAST (also one whose day passed) and effected ones BOOKED', () => {
    expect(tx('t-pending')?.status).toBe('PENDING');
    expect(tx('t-future')?.status).toBe('FORECAST');
    expect(tx('t-stale')?.status).toBe('FORECAST');
    expect(tx('t-cents')?.status).toBe('BOOKED');
  });

  it('then the days each account was read whole are named, for what the bank dropped', () => {
    expect(listed).toEqual([{ account_external_id: 'conta-1', from: '2026-02-10', to: '2026-04-11' }]);
  });

  it('then ids are trimmed, and one id repeated for different entries keeps each entry', () => {
    expect(tx('t-blank')).toMatchObject({ title: 'PIX COM ID ESPAÇADO' });
    expect(
      all('fee')
        .map((t) => [t.account_external_id ?? t.credit_card_external_id, t.amount])
        .sort(),
    ).toEqual([
      ['cartao-1', 1499],
      ['cartao-1', 2499],
      ['conta-1', 26],
      ['conta-1', 50],
    ]);
  });

  it('then the parts of one installment purchase name one series, whatever bill they are in or whether posted yet', () => {
    const [first, second, third] = [tx('n1'), tx('n2'), tx('n3')];
    expect(first?.installment).toEqual({ series_key: expect.any(String), number: 1, total: 6 });
    expect(second?.installment).toEqual({ ...first?.installment, number: 2 });
    expect(third?.installment).toEqual({ ...first?.installment, number: 3 });
    expect(first?.amount).toBe(50000);
  });

  it('then a purchase abroad is booked in reais and keeps its original amount and currency', () => {
    expect(tx('abroad')).toMatchObject({ amount: 27540, original_amount: '50.00', original_currency: 'USD' });
    expect(tx('t-cents')).not.toHaveProperty('original_amount');
    expect(tx('zero-brl')).toMatchObject({ amount: 7772 });
  });

  it('then a card entry’s type gives its direction: purchases and fees are expenses, refunds and cashback credits', () => {
    expect(tx('n2')).toMatchObject({ is_expense: true, operation_type: 'PAGAMENTO' });
    expect(all('fee').filter((t) => t.credit_card_external_id)).toEqual([
      expect.objectContaining({ is_expense: true, operation_type: 'TARIFA ANUIDADE' }),
      expect.objectContaining({ is_expense: true }),
    ]);
    expect(tx('cashback')).toMatchObject({ is_expense: false, amount: 1250 });
    expect(tx('refund')).toMatchObject({ is_expense: false, amount: 2000 });
  });

  it('then card entries name their bill; the card’s line of a payment its bill reports is left to the bill’s payments', () => {
    expect(tx('n2')).toMatchObject({ credit_card_external_id: 'cartao-1', bill_due_date: '2026-02-10' });
    expect(tx('open-1')).not.toHaveProperty('bill_due_date');
    expect(tx('paid')).toBeUndefined();
    expect(tx('paid-unknown')).toMatchObject({ is_expense: false, amount: 4200, merchant_name: null });
    expect(payload.credit_cards).toEqual([
      {
        external_id: 'cartao-1',
        name: 'Sandbox Platinum',
        account_external_id: 'conta-1',
        closing_day: 3,
        due_day: 10,
        limit: 1000000,
        available_limit: -12550,
        bills: [
          { due_date: '2026-01-10', payments: [{ date: '2026-01-10', amount: 50000 }] },
          {
            due_date: '2026-02-10',
            payments: [
              { date: '2026-02-09', amount: 90000 },
              { date: '2026-02-15', amount: 10000 },
            ],
          },
        ],
      },
    ]);
  });

  it('then a bill’s finance charges its entries leave out are entries of the bill, each a cost', () => {
    expect(payload.transactions.filter((t) => t.operation_type?.startsWith('ENCARGO'))).toEqual([
      expect.objectContaining({
        amount: 156,
        is_expense: true,
        bill_due_date: '2026-02-10',
        operation_type: 'ENCARGO IOF',
      }),
      expect.objectContaining({ amount: 1972, operation_type: 'ENCARGO JUROS_MORA_ATRASO_PAGAMENTO_FATURA' }),
    ]);
  });

  it('then a purchase named like a payment is a purchase, and a credit says whether it pays the bill', () => {
    const named = mapSnapshot(
      {
        ...snapshot,
        cards: [
          {
            ...snapshot.cards[0],
            bills: [],
            open: [
              cardTx('compra', { transactionName: 'PAGAMENTO', creditDebitType: 'CREDITO' }),
              cardTx('cash', {
                transactionName: 'PGTO',
                transactionType: 'CASHBACK',
                paymentType: undefined,
                creditDebitType: 'CREDITO',
              }),
            ],
          },
        ],
      },
      { connectionId: 'c', institution: 'B', timeZone: 'America/Sao_Paulo', today: '2026-03-12' },
    ).payload.transactions;
    expect(named.find((t) => t.external_id === 'compra')).toMatchObject({ is_expense: true });
    expect(named.find((t) => t.external_id === 'cash')).toMatchObject({ is_expense: false, bill_payment: false });
    expect(tx('paid-unknown')).toMatchObject({ bill_payment: true });
    expect(tx('refund')).toMatchObject({ bill_payment: false });
  });

  it('then a card shared without an account names none (it follows the default account)', () => {
    const cardsOnly = mapSnapshot(
      { ...snapshot, accounts: [] },
      { connectionId: 'c', institution: 'B', timeZone: 'America/Sao_Paulo', today: '2026-03-12' },
    );
    expect(cardsOnly.payload.credit_cards[0]).not.toHaveProperty('account_external_id');
    expect(cardsOnly.payload.transactions.filter((t) => t.credit_card_external_id).length).toBeGreaterThan(5);
  });

  it('then cards mapped one at a time as a sync reads them give the same cards, entries and reasons as the whole snapshot', () => {
    const input = {
      connectionId: 'conn-1',
      institution: 'Banco Sandbox',
      timeZone: 'America/Sao_Paulo',
      today: '2026-03-12',
      holderDocument: '76109277673',
    };
    const cardSkipped: Array<{ record: string; reason: string }> = [];
    const read = snapshot.cards.map((card) => mapCard(card, input, cardSkipped));
    const streamed = mapSnapshot({ ...snapshot, cards: [] }, { ...input, cards: read.map((card) => card.card) });
    expect(streamed.payload.credit_cards).toEqual(payload.credit_cards);
    expect([...streamed.payload.transactions, ...read.flatMap((card) => card.transactions)]).toEqual(
      payload.transactions,
    );
    expect([...streamed.skipped, ...cardSkipped]).toEqual(skipped);
    expect(read.flatMap((card) => card.transactions).length).toBeGreaterThan(5);
  });

  it('then each position gets the day’s balance as its snapshot', () => {
    expect(payload.investments).toEqual([
      {
        investment_id: 'tesouro-1',
        name: 'Tesouro Selic 2029',
        bank_name: 'Banco Sandbox',
        type: 'FIXED_INCOME',
        subtype: 'TREASURY',
        snapshots: [{ date: '2026-03-12', balance_cents: 2512346 }],
      },
    ]);
  });
});
