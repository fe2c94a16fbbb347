import { ownMoneyMove, pairOwnTransfers, type TransferLeg } from '../../src/domain/imports/own-money.ts';

describe('the own-money rules', () => {
  const leg = (
    id: string,
    account: string,
    is_expense: boolean,
    date = '2026-03-10',
    fields: Partial<TransferLeg> = {},
  ) => ({
    id,
    account_id: account,
    amount: 70000,
    is_expense,
    date,
    operation_type: 'PIX',
    merchant_cnpj: null,
    ...fields,
  });

  it('when a debit and the same credit in another account are days apart, then they are one transfer; a salary or a company never is', () => {
    expect(pairOwnTransfers([leg('out', 'a', true)], [leg('in', 'b', false, '2026-03-11')])).toEqual([['out', 'in']]);
    expect(pairOwnTransfers([leg('out', 'a', true)], [leg('in', 'a', false)])).toEqual([]);
    expect(pairOwnTransfers([leg('out', 'a', true)], [leg('in', 'b', false, '2026-03-20')])).toEqual([]);
    expect(
      pairOwnTransfers(
        [leg('out', 'a', true)],
        [leg('in', 'b', false, '2026-03-10', { operation_type: 'FOLHA_PAGAMENTO' })],
      ),
    ).toEqual([]);
    expect(
      pairOwnTransfers(
        [leg('out', 'a', true)],
        [leg('in', 'b', false, '2026-03-10', { merchant_cnpj: '11222333000181' })],
      ),
    ).toEqual([]);
    // two arriving legs pair with each other once
    expect(pairOwnTransfers([leg('out', 'a', true), leg('in', 'b', false)], [])).toEqual([['out', 'in']]);
  });

  it('when the other party is the holder, or the entry applies to or redeems from an investment, then it moves their own money', () => {
    const entry = (
      title: string,
      operation_type: string | null = 'OUTROS',
      counterparty_document: string | null = null,
    ) => ({
      title,
      operation_type,
      counterparty_document,
    });
    expect(ownMoneyMove(entry('PIX ENVIADO', 'PIX', '76109277673'), ['76109277673'])).toBe('own_account');
    expect(ownMoneyMove(entry('RESGATE FUNDO', 'RESGATE_APLIC_FINANCEIRA'), [])).toBe('investment');
    expect(ownMoneyMove(entry('APLICACAO CDB SANDBOX'), [])).toBe('investment');
    expect(ownMoneyMove(entry('APLIC.AUTOM.INVEST FACIL'), [])).toBe('investment');
    expect(ownMoneyMove(entry('RENDIMENTO APLICACAO', 'RENDIMENTO_APLIC_FINANCEIRA'), [])).toBeNull();
    expect(ownMoneyMove(entry('PIX ENVIADO', 'PIX', '52998224725'), ['76109277673'])).toBeNull();
    expect(ownMoneyMove(entry('APPLE.COM/BILL'), [])).toBeNull();
  });
});
