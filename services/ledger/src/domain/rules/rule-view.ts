import { iso } from '@finance/shared/db/context-scope';
import type { RuleRow } from '../../data-access/rule-repository.ts';

/** The Categorization rule record of the spec. */
export const ruleView = (row: RuleRow) => ({
  id: row.id,
  category_id: row.category_id,
  subcategory_id: row.subcategory_id,
  enabled: row.enabled,
  is_expense: row.is_expense,
  match_fields: row.match_fields,
  source_id: row.source_id,
  source_kind: row.source_kind,
  source_transaction_id: row.source_transaction_id,
  available_criteria: row.available_criteria,
  fingerprint: row.fingerprint,
  splits:
    row.splits?.map((share) => ({
      percentage: share.basis_points / 100,
      category_id: share.category_id,
      subcategory_id: share.subcategory_id,
    })) ?? null,
  profile_id: row.profile_id,
  user_id: row.user_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export type RuleView = ReturnType<typeof ruleView>;
