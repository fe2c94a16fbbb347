import type { CallerContext } from '@finance/shared/context/signed-context';
import type { DeleteTransactionQuery } from '@finance/shared/contracts/ledger/transactions';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { endRecurrenceSeries, endRecurrenceSeriesBefore } from '../../data-access/recurrence-series-repository.ts';
import {
  findOneLive,
  liveSeriesMembers,
  membersInScope,
  softDelete,
} from '../../data-access/transaction-repository.ts';
import { TRANSACTION_NOT_FOUND } from './read-transactions.ts';
import { recordTransactionChanges } from './record-changes.ts';
import { calendarDateOf } from './transaction-input.ts';

/** DELETE /v1/transactions/{id}: logical; a series scope reaches its members; a transfer leg takes its pair. */
export async function deleteTransaction(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  query: DeleteTransactionQuery,
) {
  const scope = query.edition_type || 'THIS';
  const from = query.edition_date === undefined ? undefined : calendarDateOf('edition_date', query.edition_date);
  return em.transactional(async (tx) => {
    const target = await findOneLive(tx, ctx, id, true);
    if (!target) throw notFound(TRANSACTION_NOT_FOUND);
    const ids =
      target.type === 'TRANSFER' && target.connected_transaction_id
        ? await liveSeriesMembers(tx, [target.connected_transaction_id])
        : (await membersInScope(tx, [{ id, scope, from: from ?? target.date }])).map((m) => m.id);
    const deleted = await softDelete(tx, ids);
    // a recurrence deleted whole stops growing; "this and next" ends it at the date its future was deleted from
    if (target.type === 'RECURRENT' && scope === 'ALL') {
      await endRecurrenceSeries(tx, target.connected_transaction_id);
    } else if (target.type === 'RECURRENT' && scope === 'THIS_AND_NEXT') {
      // members are written in date order, so one dated on or after the end means nothing is left to create
      await endRecurrenceSeriesBefore(tx, target.connected_transaction_id, from ?? target.date);
    }
    recordTransactionChanges(tx, ctx, 'deleted', deleted);
    return keepAnswer({ deleted: deleted.length });
  });
}
