import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { newId } from '@finance/shared/db/base-entity';
import { apportion } from '../apportion.ts';

export const sumOf = (parts: ReadonlyArray<{ amount: number }>): number =>
  parts.reduce((total, part) => total + part.amount, 0);

/**
 * The parts of `template` for an entry of `amount` (another member of its series): the same parts in the same
 * proportions, the amount apportioned by the remainder-cent rule, each with an id of its own; null when a part
 * would get no cent.
 */
export function partsFor(template: readonly SplitPart[], amount: number): SplitPart[] | null {
  const amounts = apportion(
    amount,
    template.map((part) => part.amount),
  );
  if (amounts.some((share) => share === 0)) return null;
  return template.map((part, index) => ({ ...part, id: newId(), amount: amounts[index] }));
}

/**
 * The parts of a split entry whose amount became `amount` (an edit or a re-import): unchanged when they still sum to
 * it, else apportioned to it in their proportions, a part left with no cent dropped; fewer than two parts left
 * is no split (an empty list).
 */
export function rebalanced(parts: readonly SplitPart[], amount: number): SplitPart[] {
  if (sumOf(parts) === amount) return [...parts];
  const amounts = apportion(
    amount,
    parts.map((part) => part.amount),
  );
  // a dropped part held no cent, so the parts kept still sum to the amount
  const kept = parts.map((part, index) => ({ ...part, amount: amounts[index] })).filter((part) => part.amount > 0);
  return kept.length >= 2 ? kept : [];
}

/** A rule's split of `amount` by basis points (10,000 = 100 %): null when a part would get no cent. */
export function ruleParts(
  amount: number,
  shares: ReadonlyArray<{ basis_points: number; category_id: string; subcategory_id: string | null }>,
): SplitPart[] | null {
  const amounts = apportion(
    amount,
    shares.map((share) => share.basis_points),
  );
  if (amounts.some((share) => share === 0)) return null;
  return shares.map((share, index) => ({
    id: newId(),
    amount: amounts[index],
    category_id: share.category_id,
    subcategory_id: share.subcategory_id,
    description: null,
    tag_ids: [],
    contact_id: null,
    cost_center_id: null,
  }));
}
