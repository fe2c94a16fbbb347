import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { TransactionListQuery } from '@finance/shared/contracts/ledger/transactions';
import { afterDateIdOf, encodeCursor } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { JsonBytes } from '@finance/shared/http/service-routes';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneLive, listPage, visibleAccountIds } from '../../data-access/transaction-repository.ts';
import { requireCard } from '../card-entries/card-rows.ts';
import { assertReferences } from '../references/assert-references.ts';
import { calendarDateOf } from './transaction-input.ts';
import { transactionView } from './transaction-view.ts';

export const TRANSACTION_NOT_FOUND = 'Lançamento não encontrado';

export async function getTransaction(em: EntityManager, ctx: CallerContext, id: string) {
  const row = await findOneLive(em, ctx, id);
  if (!row) throw notFound(TRANSACTION_NOT_FOUND);
  return transactionView(row);
}

/** `{ data, next_cursor }`, ordered by date, then creation (uuidv7 ids); the cursor holds the last (date, id). */
export async function listTransactions(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  query: TransactionListQuery,
) {
  const { limit, cursor, ...filters } = query;
  const after = afterDateIdOf(cursor);
  for (const field of ['start_date', 'end_date'] as const) {
    if (filters[field] !== undefined) calendarDateOf(field, filters[field]);
  }
  // a filter naming another context's account, card or category is 404, like any foreign id
  if (filters.account_id && !(await visibleAccountIds(em, ctx, [filters.account_id])).size) {
    throw notFound('Conta não encontrada (account_id)');
  }
  if (filters.credit_card_id) await requireCard(billing, ctx, filters.credit_card_id);
  if (filters.category_id) await assertReferences(em, ctx, { categoryId: filters.category_id });
  const rows = await listPage(em, ctx, filters, limit, after);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit ? encodeCursor([last.date, last.id]) : null;
  // the records come as PostgreSQL wrote their JSON: put together, never parsed
  return new JsonBytes(
    Buffer.from(`{"data":[${items.map((row) => row.view).join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`),
  );
}
