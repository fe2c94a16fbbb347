import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SELECT_COLUMNS, selectTransactions, type TransactionRow } from './transaction-repository.ts';

/** Locks one transaction row FOR UPDATE until the transaction ends (a series' first member serializes appends). */
export async function lockTransactionRow(em: EntityManager, id: string): Promise<void> {
  await runSql(em, 'select id from transactions where id = ? for update', [id]);
}

/** Every member of an installment series now counts `total` installments. */
export async function setSeriesInstallments(em: EntityManager, seriesId: string, total: number): Promise<void> {
  await runSql(em, 'update transactions set installments = ?, updated_at = now() where connected_transaction_id = ?', [
    total,
    seriesId,
  ]);
}

/** The tag ids of one transaction. */
export async function tagIdsOf(em: EntityManager, transactionId: string) {
  return runSql<{ tag_id: string }>(em, 'select tag_id from transaction_tags where transaction_id = ?', [
    transactionId,
  ]);
}

/** The live member of a series with the highest index. */
export async function lastLiveSeriesMember(em: EntityManager, seriesId: string): Promise<TransactionRow> {
  const [last] = await selectTransactions(
    em,
    `select ${SELECT_COLUMNS} from transactions t
     where t.connected_transaction_id = ? and t.deleted_at is null order by t.series_index desc limit 1`,
    [seriesId],
  );
  return last;
}

/** The next index of a series (deleted members counted) and the day of month of its first member. */
export async function seriesNextIndex(em: EntityManager, seriesId: string) {
  const [row] = await runSql<{ next_index: number; anchor_day: number }>(
    em,
    `select max(series_index) + 1 as next_index,
            extract(day from min(date) filter (where series_index = 0))::int as anchor_day
     from transactions where connected_transaction_id = ?`,
    [seriesId],
  );
  return row;
}
