import type { EnabledRule } from '../../src/data-access/rule-repository.ts';
import { winningRule } from '../../src/domain/rules/winning-rule.ts';

const rule = (id: string, fields: Partial<EnabledRule>): EnabledRule => ({
  id,
  category_id: `categoria-${id}`,
  subcategory_id: null,
  is_expense: true,
  match_fields: ['merchant_name'],
  match_merchant_name: 'mercado bom',
  match_merchant_cnpj: null,
  splits: null,
  updated_at: new Date('2026-01-01T00:00:00Z'),
  ...fields,
});

describe('the rule that categorizes an imported entry', () => {
  const rules = [
    rule('older', { updated_at: new Date('2026-01-01T00:00:00Z') }),
    rule('newer', { updated_at: new Date('2026-02-01T00:00:00Z') }),
    rule('both', {
      match_fields: ['merchant_name', 'merchant_cnpj'],
      match_merchant_cnpj: '12345678000190',
      updated_at: new Date('2025-01-01T00:00:00Z'),
    }),
    rule('income', { is_expense: false, updated_at: new Date('2027-01-01T00:00:00Z') }),
  ];
  const entry = (merchant_name: string | null, merchant_cnpj: string | null = null, is_expense = true) => ({
    merchant_name,
    merchant_cnpj,
    is_expense,
  });

  it('when rules match, then the one matching more fields wins, then the most recently updated', () => {
    expect(winningRule(rules, entry('Mercado Bom', '12.345.678/0001-90'))?.id).toBe('both');
    expect(winningRule(rules, entry('MERCADO  BOM'))?.id).toBe('newer');
    expect(winningRule(rules, entry('Mercado Bom', null, false))?.id).toBe('income');
  });

  it('when the entry has no merchant, another one or the other direction, then no rule', () => {
    expect(winningRule(rules, entry(null))).toBeNull();
    expect(winningRule(rules, entry('Outro Mercado'))).toBeNull();
    expect(winningRule([rules[0]], entry('Mercado Bom', null, false))).toBeNull();
  });

  it('when updated at the same instant, then the higher id wins, as SQL orders them', () => {
    const same = new Date('2026-03-01T00:00:00Z');
    expect(
      winningRule([rule('a', { updated_at: same }), rule('b', { updated_at: same })], entry('Mercado Bom'))?.id,
    ).toBe('b');
  });
});
