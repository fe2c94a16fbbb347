import type { ImportedTransaction } from '@finance/shared/contracts/ledger/open-banking';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/** The account or card an entry belongs to, by the institution's id: with the entry's id, what a repeat shares. */
const holderOf = (entry: ImportedTransaction) =>
  entry.account_external_id !== undefined ? `a:${entry.account_external_id}` : `c:${entry.credit_card_external_id}`;

/**
 * Appends entries to the sync's stage, numbered from `firstSeq` in their order, committed without waiting for the
 * WAL (the hand-over's commit waits for it, as a statement file's pieces do).
 */
export async function insertStagedEntries(
  em: EntityManager,
  syncId: string,
  firstSeq: number,
  entries: readonly ImportedTransaction[],
): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry, n) => ({
    seq: firstSeq + n,
    holder: holderOf(entry),
    key: entry.external_id,
    entry,
  }));
  await runSql(
    em,
    `insert into sync_staged_entries (sync_id, seq, holder, key, entry)
     select ?, r.seq, r.holder, r.key, r.entry
     from json_to_recordset(?::json) as r(seq int, holder text, key text, entry jsonb),
       (select set_config('synchronous_commit', 'off', true)) as unflushed`,
    [syncId, JSON.stringify(rows)],
  );
}

/** Numbers each entry with the first seq of its holder and id, the order the import reads them back in. */
export async function orderStagedEntries(em: EntityManager, syncId: string): Promise<void> {
  await runSql(
    em,
    `update sync_staged_entries s set first_seq = f.first_seq
     from (select holder, key, min(seq) as first_seq from sync_staged_entries where sync_id = ? group by holder, key) f
     where s.sync_id = ? and s.holder = f.holder and s.key = f.key`,
    [syncId, syncId],
  );
}

/** Where a reading of the stage left off. */
export interface StagePosition {
  first_seq: number;
  seq: number;
}

/**
 * Up to `limit` staged entries after `after`, in their order, plus the rest of the last one's holder and id (a
 * bank's repeated id stays in one batch), each with its position.
 */
export async function selectStagedEntries(
  em: EntityManager,
  syncId: string,
  after: StagePosition | null,
  limit: number,
): Promise<Array<StagePosition & { entry: ImportedTransaction }>> {
  const from = after ?? { first_seq: -1, seq: -1 };
  const rows = await runSql<StagePosition & { entry: ImportedTransaction }>(
    em,
    `select first_seq, seq, entry from sync_staged_entries
     where sync_id = ? and (first_seq, seq) > (?, ?) order by first_seq, seq limit ?`,
    [syncId, from.first_seq, from.seq, limit],
  );
  const last = rows.at(-1);
  if (!last || rows.length < limit) return rows;
  const rest = await runSql<StagePosition & { entry: ImportedTransaction }>(
    em,
    `select first_seq, seq, entry from sync_staged_entries
     where sync_id = ? and first_seq = ? and seq > ? order by seq`,
    [syncId, last.first_seq, last.seq],
  );
  return [...rows, ...rest];
}

/** The sync's stage, deleted (its import finished, or the sync failed). */
export async function deleteStagedEntries(em: EntityManager, syncId: string): Promise<void> {
  await runSql(em, 'delete from sync_staged_entries where sync_id = ?', [syncId]);
}

/** Stages older than `days` (a sync or an import that died and was not retried), deleted. */
export async function deleteAbandonedStages(em: EntityManager, days: number): Promise<void> {
  await runSql(em, `delete from sync_staged_entries where created_at < now() - make_interval(days => ?)`, [days]);
}
