import { isPaymentLine, pairBillPayments } from '../../src/domain/imports/bill-payments.ts';

describe('the bill-payment rule', () => {
  it('when a card line says it pays the bill, then it is a payment; a refund or a purchase is not', () => {
    for (const title of ['Pagamento recebido', 'PGTO FATURA', 'PAGTO. POR DEB EM C/C', 'PAGAMENTO EFETUADO'])
      expect([title, isPaymentLine(title)]).toEqual([title, true]);
    for (const title of ['ESTORNO PAGAMENTO', 'PAGUE MENOS FARMACIA', 'SUPERMERCADO'])
      expect([title, isPaymentLine(title)]).toEqual([title, false]);
  });

  it('when several debits match, then the closest day wins, then one already that bill’s payment, then one naming a bill', () => {
    const payment = { amount: 90000, date: '2026-02-10', bill_id: 'b1' };
    const debit = (id: string, date: string, title = 'PIX', bill_id: string | null = null) => ({
      id,
      amount: 90000,
      date,
      title,
      bill_id,
    });
    expect(pairBillPayments([payment], [debit('far', '2026-02-13'), debit('near', '2026-02-11')]).get(0)).toBe('near');
    expect(
      pairBillPayments(
        [payment],
        [debit('plain', '2026-02-10'), debit('named', '2026-02-10', 'PAG FATURA CARTAO')],
      ).get(0),
    ).toBe('named');
    expect(
      pairBillPayments([payment], [debit('named', '2026-02-10', 'FATURA'), debit('paid', '2026-02-10', 'x', 'b1')]).get(
        0,
      ),
    ).toBe('paid');
    // another bill's payment, another amount or a week apart: not this one
    expect(
      pairBillPayments(
        [payment],
        [
          debit('other', '2026-02-10', 'x', 'b2'),
          { ...debit('amount', '2026-02-10'), amount: 90001 },
          debit('late', '2026-02-17'),
        ],
      ).size,
    ).toBe(0);
  });
});
