import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import { afterIdOf, encodeCursor } from '@finance/shared/db/pagination';
import { conflict, invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { forecastReconciledWith, selectSuggestionPage, setReconciliation } from '../../data-access/reconciliation.ts';
import { findLive, findOneLive } from '../../data-access/transaction-repository.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { transactionView } from '../transactions/transaction-view.ts';
import { MATCH_WINDOW_DAYS } from './match-entries.ts';

const NOT_FOUND = 'Transação não encontrada';

/** GET /v1/reconciliation/suggestions: pairs the matching rule joins, by forecast id (docs/decisions.md §9). */
export async function listSuggestions(em: EntityManager, ctx: CallerContext, query: PageQuery) {
  const pairs = await selectSuggestionPage(em, ctx, MATCH_WINDOW_DAYS, {
    limit: query.limit,
    after: afterIdOf(query.cursor),
  });
  const page = pairs.slice(0, query.limit);
  const rows = new Map(
    (
      await findLive(
        em,
        ctx,
        page.flatMap((pair) => [pair.forecast_id, pair.transaction_id]),
      )
    ).map((row) => [row.id, row]),
  );
  const data = page.flatMap((pair) => {
    const forecast = rows.get(pair.forecast_id);
    const transaction = rows.get(pair.transaction_id);
    return forecast && transaction
      ? [{ forecast: transactionView(forecast), transaction: transactionView(transaction) }]
      : [];
  });
  const last = page[page.length - 1];
  return {
    data,
    next_cursor: pairs.length > query.limit && last ? encodeCursor([last.forecast_id]) : null,
  };
}

/**
 * POST /v1/transactions/{id}/reconcile: the forecast `id` is settled by the paid entry `transactionId`. Both rows
 * are locked, the entry first, so two forecasts never get one entry at once.
 */
/** The forecast as the answer shows it, read in the transaction that changed it. */
async function reconciledView(tx: EntityManager, ctx: CallerContext, forecastId: string) {
  return transactionView(
    (await findOneLive(tx, ctx, forecastId)) as NonNullable<Awaited<ReturnType<typeof findOneLive>>>,
  );
}

export async function reconcileTransaction(
  em: EntityManager,
  ctx: CallerContext,
  forecastId: string,
  transactionId: string,
) {
  return em.transactional(async (tx) => {
    const forecast = await findOneLive(tx, ctx, forecastId, true);
    if (!forecast) throw notFound(NOT_FOUND);
    const real = await findOneLive(tx, ctx, transactionId, true);
    if (!real) throw notFound('Transação (transaction_id) não encontrada');
    if (forecast.reconciled_at) throw conflict('Esta previsão já está conciliada; desfaça antes com unreconcile');
    if (forecast.paid || forecast.external_id !== null || forecast.type === 'TRANSFER') {
      throw conflict('Só uma previsão (lançamento manual não pago) pode ser conciliada');
    }
    if (real.id === forecast.id)
      throw invalidField('transaction_id', 'informe o lançamento real, não a própria previsão');
    if (!real.paid || real.reconciled_at) throw invalidField('transaction_id', 'o lançamento real deve estar pago');
    if (real.is_expense !== forecast.is_expense) {
      throw invalidField(
        'transaction_id',
        'o lançamento real deve ter a mesma direção (despesa ou receita) da previsão',
      );
    }
    if (await forecastReconciledWith(tx, ctx, real.id)) {
      throw conflict('Este lançamento já concilia outra previsão');
    }
    recordTransactionChanges(tx, ctx, 'updated', await setReconciliation(tx, ctx, forecast.id, real.id));
    return keepAnswer(await reconciledView(tx, ctx, forecast.id));
  });
}

/** POST /v1/transactions/{id}/unreconcile: `id` is the reconciled forecast or the entry it was reconciled with. */
export async function unreconcileTransaction(em: EntityManager, ctx: CallerContext, id: string) {
  return em.transactional(async (tx) => {
    const row = await findOneLive(tx, ctx, id, true);
    if (!row) throw notFound(NOT_FOUND);
    const forecast = row.reconciled_at ? row.id : await forecastReconciledWith(tx, ctx, row.id);
    if (!forecast) throw conflict('Esta transação não está conciliada');
    recordTransactionChanges(tx, ctx, 'updated', await setReconciliation(tx, ctx, forecast, null));
    return keepAnswer(await reconciledView(tx, ctx, forecast));
  });
}
