import type { CallerContext } from '@finance/shared/context/signed-context';
import type { RuleSplitFields } from '@finance/shared/contracts/ledger/categorization-rules';
import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { invalidField } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RuleShare } from '../../data-access/rule-repository.ts';
import { type SplitWrite, writeSplits } from '../../data-access/split-repository.ts';
import { assertEachReferences } from '../references/assert-references.ts';
import { ruleParts } from '../splits/split-parts.ts';

const WHOLE = 10_000;

/**
 * A rule's split as stored (basis points), from what a command sent: `undefined` keeps `current`, null removes it.
 * Percentages must sum to exactly 100 (400 on `splits`); their categories and subcategories must be visible (404).
 */
export async function ruleSharesOf(
  tx: EntityManager,
  ctx: CallerContext,
  input: RuleSplitFields[] | null | undefined,
  current: RuleShare[] | null,
): Promise<RuleShare[] | null> {
  if (input === undefined) return current;
  if (input === null) return null;
  const shares = input.map((part) => ({
    basis_points: Math.round(part.percentage * 100),
    category_id: part.category_id,
    subcategory_id: part.subcategory_id ?? null,
  }));
  if (shares.reduce((sum, share) => sum + share.basis_points, 0) !== WHOLE) {
    throw invalidField('splits', 'as porcentagens das partes devem somar exatamente 100');
  }
  await assertEachReferences(
    tx,
    ctx,
    shares.map((share) => ({ categoryId: share.category_id, subcategoryId: share.subcategory_id })),
    (index, field) => `splits[${index}].${field}`,
  );
  return shares;
}

/** Two splits file the same cents in the same places (ids, descriptions and tags aside). */
const sameParts = (a: readonly SplitPart[], b: readonly SplitPart[]) =>
  a.length === b.length &&
  a.every(
    (part, index) =>
      part.amount === b[index].amount &&
      part.category_id === b[index].category_id &&
      part.subcategory_id === b[index].subcategory_id,
  );

/**
 * Splits each entry by its rule's shares (`ruleParts`: the remainder-cent rule), replacing the parts it had; an entry
 * already split that way, or too small for every part to get a cent, is left as it is. The parts written, by entry.
 */
export async function splitByRules(
  tx: EntityManager,
  targets: Array<{ id: string; amount: number; current: SplitPart[] | null | undefined; shares: RuleShare[] }>,
): Promise<Map<string, SplitPart[]>> {
  const writes: SplitWrite[] = targets.flatMap((target) => {
    const parts = ruleParts(target.amount, target.shares);
    if (!parts || sameParts(parts, target.current ?? [])) return [];
    return [{ transaction_id: target.id, parts }];
  });
  await writeSplits(tx, writes);
  return new Map(writes.map((write) => [write.transaction_id, write.parts]));
}
