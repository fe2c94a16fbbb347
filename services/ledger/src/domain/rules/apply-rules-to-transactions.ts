import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { applyWinningRules } from '../../data-access/transaction-updates.ts';
import { withParts } from '../splits/keep-splits.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { splitByRules } from './rule-splits.ts';

/**
 * Categorizes these transactions of the context with their winning enabled rule (docs/decisions.md §9: the rule
 * matching more fields wins, then the most recently updated), in one UPDATE. Rows already in the winning
 * category are left alone; the changed ones go out in one `transaction.changed` event. Answers how many
 * changed. Call it inside the command's transaction (imports call it for the rows they created).
 */
export async function applyRulesToTransactions(
  em: EntityManager,
  ctx: CallerContext,
  transactionIds: string[],
): Promise<number> {
  if (transactionIds.length === 0) return 0;
  const changed = await applyWinningRules(em, ctx, transactionIds);
  // a winner that splits splits what it categorized
  const split = await splitByRules(
    em,
    changed.flatMap(({ rule_splits: shares, ...row }) =>
      shares ? [{ id: row.id, amount: Number(row.amount), current: row.splits, shares }] : [],
    ),
  );
  recordTransactionChanges(
    em,
    ctx,
    'updated',
    withParts(
      changed.map(({ rule_splits, ...row }) => row),
      split,
    ),
  );
  return changed.length;
}
