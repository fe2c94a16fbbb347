import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RuleRow } from '../../data-access/rule-repository.ts';
import { execute } from '../../data-access/transaction-repository.ts';
import { type ChangedRow, changedColumns, recordTransactionChanges } from '../transactions/record-changes.ts';

/** Puts an enabled rule's live source transaction in its category; answers whether that changed it. */
export async function categorizeSource(tx: EntityManager, ctx: CallerContext, rule: RuleRow): Promise<boolean> {
  if (!rule.enabled) return false;
  const scope = contextSql(ctx, 't');
  const changed = await execute<ChangedRow>(
    tx,
    `update transactions t set category_id = ?, subcategory_id = ?, updated_at = now()
     where t.id = ? and t.deleted_at is null and ${scope.sql}
       and (t.category_id is distinct from ? or t.subcategory_id is distinct from ?)
     returning ${changedColumns()}`,
    [
      rule.category_id,
      rule.subcategory_id,
      rule.source_transaction_id,
      ...scope.params,
      rule.category_id,
      rule.subcategory_id,
    ],
  );
  recordTransactionChanges(tx, ctx, 'updated', changed);
  return changed.length > 0;
}
