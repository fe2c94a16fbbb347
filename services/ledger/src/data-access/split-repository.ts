import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SPLIT_PART_JSON } from './split-json.ts';

/** A transaction's new parts, in order (an empty list removes its split). */
export interface SplitWrite {
  transaction_id: string;
  parts: SplitPart[];
}

/** The parts of these transactions (ids the caller already found in its context), each list in its order. */
export async function partsOf(em: EntityManager, transactionIds: string[]): Promise<Map<string, SplitPart[]>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await runSql<{ transaction_id: string; parts: SplitPart[] }>(
    em,
    `select s.transaction_id, json_agg(${SPLIT_PART_JSON} order by s.position) as parts
     from transaction_splits s where s.transaction_id in (?) group by s.transaction_id`,
    [transactionIds],
  );
  return new Map(rows.map((row) => [row.transaction_id, row.parts]));
}

/**
 * Replaces the parts of each transaction (its row locked by the caller) and sets its `is_split` flag, in three
 * statements whatever the number: the old parts go, the new ones are written under the parent's owner, the flags follow.
 */
export async function writeSplits(em: EntityManager, writes: SplitWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const ids = writes.map((write) => write.transaction_id);
  await runSql(em, 'delete from transaction_splits where transaction_id in (?)', [ids]);
  const parts = writes.flatMap((write) =>
    write.parts.map((part, position) => ({ ...part, transaction_id: write.transaction_id, position })),
  );
  if (parts.length) {
    await runSql(
      em,
      `insert into transaction_splits (id, user_id, profile_id, transaction_id, position, amount, category_id,
         subcategory_id, description, tag_ids, contact_id, cost_center_id, created_at, updated_at)
       select r.id, t.user_id, t.profile_id, r.transaction_id, r.position, r.amount, r.category_id, r.subcategory_id,
         r.description, coalesce(r.tag_ids, '{}'), r.contact_id, r.cost_center_id, now(), now()
       from json_to_recordset(?::json) as r(id uuid, transaction_id uuid, position int, amount bigint,
         category_id uuid, subcategory_id uuid, description text, tag_ids uuid[], contact_id uuid, cost_center_id uuid)
       join transactions t on t.id = r.transaction_id`,
      [JSON.stringify(parts)],
    );
  }
  await runSql(
    em,
    `update transactions t set is_split = f.split, updated_at = now()
     from json_to_recordset(?::json) as f(id uuid, split boolean) where t.id = f.id`,
    [JSON.stringify(writes.map((write) => ({ id: write.transaction_id, split: write.parts.length > 0 })))],
  );
}

/** The split ones among these transactions, with their amounts: what a change of amount may have to re-apportion. */
export async function splitAmounts(em: EntityManager, transactionIds: string[]) {
  if (transactionIds.length === 0) return [];
  const rows = await runSql<{ id: string; amount: string }>(
    em,
    'select t.id, t.amount::text as amount from transactions t where t.id in (?) and t.is_split and t.deleted_at is null',
    [transactionIds],
  );
  return rows.map((row) => ({ id: row.id, amount: Number(row.amount) }));
}
