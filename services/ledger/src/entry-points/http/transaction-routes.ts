import { transactionRoutes } from '@finance/shared/contracts/ledger/transactions';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import type { ListFilters } from '../../data-access/transaction-repository.ts';
import { appendInstallments } from '../../domain/transactions/append-installments.ts';
import { type CreateTransactionInput, createTransaction } from '../../domain/transactions/create-transaction.ts';
import { createTransfer, type TransferInput } from '../../domain/transactions/create-transfer.ts';
import { deleteTransaction } from '../../domain/transactions/delete-transactions.ts';
import { duplicateTransaction } from '../../domain/transactions/duplicate-transaction.ts';
import { getTransaction, listTransactions } from '../../domain/transactions/read-transactions.ts';
import { settleTransaction } from '../../domain/transactions/settle-transaction.ts';
import { transactionIdsOf } from '../../domain/transactions/transaction-ids.ts';
import type { TransactionInput } from '../../domain/transactions/transaction-input.ts';
import { updateManyTransactions } from '../../domain/transactions/update-many-transactions.ts';

const route = (operationId: string) => routeById(transactionRoutes, operationId);

export function mountTransactionRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  const id = (params: Record<string, unknown>) => String(params.id);
  mountRoute(router, route('createTransfer'), (input, ctx) =>
    createTransfer(orm.em.fork(), ctx, input.body as TransferInput),
  );
  mountRoute(router, route('createTransaction'), (input, ctx) =>
    createTransaction(orm.em.fork(), ctx, input.body as CreateTransactionInput, billingFor(runtime)),
  );
  mountRoute(router, route('listTransactions'), (input, ctx) =>
    listTransactions(
      orm.em.fork(),
      ctx,
      input.query as unknown as ListFilters & { limit: number; cursor?: string },
      billingFor(runtime),
    ),
  );
  mountRoute(router, route('getTransaction'), (input, ctx) => getTransaction(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('deleteTransaction'), (input, ctx) =>
    deleteTransaction(orm.em.fork(), ctx, id(input.params), input.query),
  );
  mountRoute(router, route('updateManyTransactions'), (input, ctx) =>
    updateManyTransactions(
      orm.em.fork(),
      ctx,
      transactionIdsOf(input.query),
      input.body as TransactionInput,
      billingFor(runtime),
    ),
  );
  mountRoute(router, route('duplicateTransaction'), (input, ctx) =>
    duplicateTransaction(orm.em.fork(), ctx, id(input.params)),
  );
  mountRoute(router, route('appendInstallments'), (input, ctx) =>
    appendInstallments(
      orm.em.fork(),
      ctx,
      id(input.params),
      (input.body as { quantity: number }).quantity,
      billingFor(runtime),
    ),
  );
  mountRoute(router, route('settleTransaction'), (input, ctx) =>
    settleTransaction(orm.em.fork(), ctx, id(input.params), input.body as { account_id: string; paid_at?: string }),
  );
}
