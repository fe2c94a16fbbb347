import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextOfRef, contextRef } from '@finance/shared/db/context-scope';
import type { TransactionChanged } from '@finance/shared/queue/catalogue';
import { outboxEvent, recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangedRow } from '../../data-access/changed-rows-sql.ts';
import type { TransactionRow } from '../../data-access/transaction-repository.ts';
import { eventItem } from './transaction-view.ts';

type EventRow = Parameters<typeof eventItem>[0];

/** Writes `transaction.changed` in the command's transaction (flushed with its commit). */
export function recordTransactionChanges(
  em: EntityManager,
  ctx: CallerContext,
  change: TransactionChanged['change'],
  rows: ChangedRow[],
): void {
  if (rows.length === 0) return;
  const transactions = rows.map((row) => eventItem({ ...row, amount: Number(row.amount) }));
  recordEvent(em, 'transaction.changed', contextRef(ctx), { change, transactions });
}

/** The same `transaction.changed` as an outbox row for a statement that inserts it itself (`insertWithEvent`). */
export function transactionChangesEvent(ctx: CallerContext, change: TransactionChanged['change'], rows: ChangedRow[]) {
  const transactions = rows.map((row) => eventItem({ ...row, amount: Number(row.amount) }));
  const { id, payload } = outboxEvent('transaction.changed', contextRef(ctx), { change, transactions });
  return { id, type: 'transaction.changed', payload };
}

/** Same event for rows of several contexts (jobs): one event per context. */
export function recordChangesByContext(
  em: EntityManager,
  change: TransactionChanged['change'],
  rows: Array<EventRow & Pick<TransactionRow, 'user_id' | 'profile_id'>>,
): void {
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.user_id}:${row.profile_id ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const group of groups.values()) {
    const ctx = contextOfRef(group[0]);
    recordTransactionChanges(em, ctx, change, group);
  }
}
