import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RuleRow } from '../../data-access/rule-repository.ts';
import { categorizeRuleSource } from '../../data-access/transaction-updates.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';

/** Puts an enabled rule's live source transaction in its category; answers whether that changed it. */
export async function categorizeSource(tx: EntityManager, ctx: CallerContext, rule: RuleRow): Promise<boolean> {
  if (!rule.enabled) return false;
  const changed = await categorizeRuleSource(tx, ctx, rule);
  recordTransactionChanges(tx, ctx, 'updated', changed);
  return changed.length > 0;
}
