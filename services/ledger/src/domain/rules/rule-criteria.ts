import { createHash } from 'node:crypto';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { MATCH_FIELDS, type MatchField } from '@finance/shared/contracts/ledger/categorization-rules';
import { invalidField } from '@finance/shared/errors/app-error';
import type { Criterion } from '../../data-access/rule-repository.ts';
import { normalizeCnpj, normalizeMerchantName } from './normalize.ts';

/** The merchant criteria a transaction offers, in the order of MATCH_FIELDS. */
export function criteriaOf(row: { merchant_name: string | null; merchant_cnpj: string | null }): Criterion[] {
  const criteria: Criterion[] = [];
  const name = normalizeMerchantName(row.merchant_name);
  if (name !== null && row.merchant_name !== null) {
    criteria.push({ field: 'merchant_name', normalized: name, value: row.merchant_name });
  }
  const cnpj = normalizeCnpj(row.merchant_cnpj);
  if (cnpj !== null && row.merchant_cnpj !== null) {
    criteria.push({ field: 'merchant_cnpj', normalized: cnpj, value: row.merchant_cnpj });
  }
  return criteria;
}

/** match_fields as stored: only available fields (400 otherwise), in a fixed order; default all available. */
export function chooseMatchFields(criteria: Criterion[], requested: string[] | undefined): MatchField[] {
  const available = new Set(criteria.map((criterion) => criterion.field));
  const wanted = new Set(requested ?? available);
  for (const field of wanted) {
    if (!available.has(field as MatchField)) {
      throw invalidField('match_fields', `${field} não está disponível na transação de origem da regra`);
    }
  }
  return MATCH_FIELDS.filter((field) => wanted.has(field));
}

/** `sha256:` + hex of the context, the direction and the matched normalized values (docs/decisions.md §9). */
export function fingerprintOf(
  ctx: CallerContext,
  isExpense: boolean,
  criteria: Criterion[],
  matchFields: MatchField[],
): string {
  const matched = matchFields.map((field) => [field, normalizedValue(criteria, field)]);
  const context = ctx.profileId ? `profile:${ctx.profileId}` : `user:${ctx.userId}`;
  const digest = createHash('sha256')
    .update(JSON.stringify([context, isExpense ? 'expense' : 'income', matched]))
    .digest('hex');
  return `sha256:${digest}`;
}

export const normalizedValue = (criteria: Criterion[], field: MatchField): string | null =>
  criteria.find((criterion) => criterion.field === field)?.normalized ?? null;

/** The columns a rule matches on: the normalized value of each field it lists, null for the others. */
export const matchValues = (criteria: Criterion[], matchFields: MatchField[]) => ({
  match_merchant_name: matchFields.includes('merchant_name') ? normalizedValue(criteria, 'merchant_name') : null,
  match_merchant_cnpj: matchFields.includes('merchant_cnpj') ? normalizedValue(criteria, 'merchant_cnpj') : null,
});
