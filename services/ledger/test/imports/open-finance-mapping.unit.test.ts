import type { BankCardTransaction, BankSnapshot } from '../../src/domain/open-banking/bank-connector.ts';
import { parseStoredPayload } from '../../src/domain/open-banking/import-payload.ts';
import { mapSnapshot } from '../../src/domain/open-banking/open-finance-mapping.ts';

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
  transactionType: 'OUTROS',
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
        accountTx('t-future', { completedAuthorisedPaymentType: 'LANCAMENTO_FUTURO', type: 'BOLETO' }),
        accountTx('t-zero', { transactionAmount: brl('0.00') }),
      ],
    },
  ],
  cards: [
    {
      creditCardAccountId: 'cartao-1',
      name: 'Sandbox Platinum',
      brandName: 'Banco Sandbox',
      limit: brl('10000.00'),
      bills: [
        {
          billId: 'fatura-jan',
          dueDate: '2026-01-10',
          transactions: [notebook('n1', 1, '2026-01-03', 'fatura-jan')],
        },
        {
          billId: 'fatura-fev',
          dueDate: '2026-02-10',
          transactions: [
            notebook('n2', 2, '2026-02-03', 'fatura-fev'),
            cardTx('abroad', {
              billId: 'fatura-fev',
              transactionName: 'AMAZON.COM US',
              brazilianAmount: brl('275.40'),
              amount: { amount: '50.00', currency: 'USD' },
            }),
            cardTx('paid', {
              billId: 'fatura-fev',
              transactionType: 'PAGAMENTO',
              creditDebitType: 'CREDITO',
              brazilianAmount: brl('900.00'),
            }),
            cardTx('cashback', {
              billId: 'fatura-fev',
              transactionType: 'CASHBACK',
              creditDebitType: 'CREDITO',
              brazilianAmount: brl('12.50'),
            }),
          ],
        },
      ],
      open: [cardTx('open-1')],
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
};

describe('mapping an Open Finance sync to the import payload', () => {
  const payload = mapSnapshot(snapshot, {
    connectionId: 'conn-1',
    institution: 'Banco Sandbox',
    timeZone: 'America/Sao_Paulo',
    today: '2026-03-12',
  });
  const tx = (id: string) => payload.transactions.find((t) => t.external_id === id);

  it('then the payload passes the JSON import’s own schema', () => {
    expect(() => parseStoredPayload(payload)).not.toThrow();
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

  it('then amounts are exact cents and creditDebitType gives the direction', () => {
    expect(tx('t-cents')).toMatchObject({ amount: 10, is_expense: true });
    expect(tx('t-big')).toMatchObject({ amount: 123456789, is_expense: false });
    expect(tx('t-zero')).toBeUndefined();
  });

  it('then the counterparty’s CNPJ and the type fill the merchant fields; a person’s CPF does not', () => {
    expect(tx('t-big')).toMatchObject({
      merchant_cnpj: '33000167000101',
      merchant_name: 'PIX PADARIA',
      operation_type: 'TED',
    });
    expect(tx('t-person')).toMatchObject({ merchant_cnpj: null, merchant_name: null, operation_type: 'PIX' });
  });

  it('then the booking day is the context’s calendar day', () => {
    expect(tx('t-cents')?.date).toBe('2026-03-10');
    expect(tx('t-night')?.date).toBe('2026-03-09');
  });

  it('then processing entries are PENDING, scheduled ones FORECAST and effected ones BOOKED', () => {
    expect(tx('t-pending')?.status).toBe('PENDING');
    expect(tx('t-future')?.status).toBe('FORECAST');
    expect(tx('t-cents')?.status).toBe('BOOKED');
  });

  it('then the parts of one installment purchase name one series, whatever bill they were posted to', () => {
    const [first, second] = [tx('n1'), tx('n2')];
    expect(first?.installment).toEqual({ series_key: expect.any(String), number: 1, total: 6 });
    expect(second?.installment).toEqual({ ...first?.installment, number: 2 });
    expect(first?.amount).toBe(50000);
  });

  it('then a purchase abroad is booked in reais and keeps its original amount and currency', () => {
    expect(tx('abroad')).toMatchObject({ amount: 27540, original_amount: '50.00', original_currency: 'USD' });
    expect(tx('t-cents')).not.toHaveProperty('original_amount');
  });

  it('then card entries name the bill the institution put them in; a bill’s payment is left to the account', () => {
    expect(tx('n2')).toMatchObject({ credit_card_external_id: 'cartao-1', bill_due_date: '2026-02-10' });
    expect(tx('open-1')).not.toHaveProperty('bill_due_date');
    expect(tx('paid')).toBeUndefined();
    expect(tx('cashback')).toMatchObject({ is_expense: false, amount: 1250 });
    expect(payload.credit_cards).toEqual([
      {
        external_id: 'cartao-1',
        name: 'Sandbox Platinum',
        account_external_id: 'conta-1',
        closing_day: null,
        due_day: 10,
        limit: 1000000,
      },
    ]);
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
