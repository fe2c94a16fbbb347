import type { EnabledRule } from '../../data-access/rule-repository.ts';
import { normalizeCnpj, normalizeMerchantName } from './normalize.ts';

/** What a rule compares of an entry, as written (normalized here the way the stored columns are). */
export interface RuleTarget {
  is_expense: boolean;
  merchant_name: string | null;
  merchant_cnpj: string | null;
}

/**
 * The enabled rule that categorizes an entry (docs/decisions.md §9): same direction and every field it lists equal to
 * the entry's normalized value; among several, the one matching more fields, then the most recently updated, then
 * the highest id.
 */
export function winningRule(rules: readonly EnabledRule[], entry: RuleTarget): EnabledRule | null {
  const name = normalizeMerchantName(entry.merchant_name);
  const cnpj = normalizeCnpj(entry.merchant_cnpj);
  let winner: EnabledRule | null = null;
  for (const rule of rules) {
    if (rule.is_expense !== entry.is_expense) continue;
    if (rule.match_merchant_name === null && rule.match_merchant_cnpj === null) continue;
    if (rule.match_merchant_name !== null && rule.match_merchant_name !== name) continue;
    if (rule.match_merchant_cnpj !== null && rule.match_merchant_cnpj !== cnpj) continue;
    if (!winner || beats(rule, winner)) winner = rule;
  }
  return winner;
}

const beats = (a: EnabledRule, b: EnabledRule) =>
  a.match_fields.length !== b.match_fields.length
    ? a.match_fields.length > b.match_fields.length
    : new Date(a.updated_at).getTime() !== new Date(b.updated_at).getTime()
      ? new Date(a.updated_at).getTime() > new Date(b.updated_at).getTime()
      : a.id > b.id;
