import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextKey, contextSql } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';
import { type ChangedRow, changedColumns, recordTransactionChanges } from '../transactions/record-changes.ts';

/**
 * Categorizes these transactions of the context with their winning enabled rule (PRODUCT.md §9: the rule
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
  const t = contextSql(ctx, 't');
  const r = contextSql(ctx, 'r');
  const changed = await execute<ChangedRow>(
    em,
    `with winner as (
       select distinct on (t.id) t.id, r.category_id, r.subcategory_id
       from transactions t
       join categorization_rules r
         on coalesce(r.profile_id, r.user_id) = ? and ${r.sql}
        and r.deleted_at is null and r.enabled and r.is_expense = t.is_expense
        and (r.match_merchant_name is null or r.match_merchant_name = t.merchant_name_normalized)
        and (r.match_merchant_cnpj is null or r.match_merchant_cnpj = t.merchant_cnpj_digits)
       where t.id in (?) and t.deleted_at is null and ${t.sql}
       order by t.id, cardinality(r.match_fields) desc, r.updated_at desc, r.id desc
     )
     update transactions t set category_id = w.category_id, subcategory_id = w.subcategory_id, updated_at = now()
     from winner w
     where t.id = w.id
       and (t.category_id is distinct from w.category_id or t.subcategory_id is distinct from w.subcategory_id)
     returning ${changedColumns()}`,
    [contextKey(ctx), ...r.params, transactionIds, ...t.params],
  );
  recordTransactionChanges(em, ctx, 'updated', changed);
  return changed.length;
}
