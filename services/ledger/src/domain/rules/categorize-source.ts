import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RuleRow } from '../../data-access/rule-repository.ts';
import { findLive, loadByIds } from '../../data-access/transaction-repository.ts';
import { categorizeRuleSource } from '../../data-access/transaction-updates.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { splitByRules } from './rule-splits.ts';

/** Puts an enabled rule's live source transaction in its category (and its split); answers whether that changed it. */
export async function categorizeSource(tx: EntityManager, ctx: CallerContext, rule: RuleRow): Promise<boolean> {
  if (!rule.enabled) return false;
  const changed = await categorizeRuleSource(tx, ctx, rule);
  const shares = rule.splits;
  const split = shares
    ? await splitByRules(
        tx,
        (await findLive(tx, ctx, [rule.source_transaction_id])).map((row) => ({
          id: row.id,
          amount: row.amount,
          current: row.splits,
          shares,
        })),
      )
    : new Map();
  // the event carries the parts as written
  recordTransactionChanges(tx, ctx, 'updated', split.size ? await loadByIds(tx, [...split.keys()]) : changed);
  return changed.length > 0 || split.size > 0;
}
