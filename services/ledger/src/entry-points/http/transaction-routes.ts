import { transactionSplitRoutes } from '@finance/shared/contracts/ledger/transaction-splits';
import { transactionRoutes } from '@finance/shared/contracts/ledger/transactions';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import {
  getTransactionSplit,
  removeTransactionSplit,
  replaceTransactionSplit,
} from '../../domain/splits/manage-splits.ts';
import { appendInstallments } from '../../domain/transactions/append-installments.ts';
import { createTransaction } from '../../domain/transactions/create-transaction.ts';
import { createTransfer } from '../../domain/transactions/create-transfer.ts';
import { deleteTransaction } from '../../domain/transactions/delete-transactions.ts';
import { duplicateTransaction } from '../../domain/transactions/duplicate-transaction.ts';
import { getTransaction, listTransactions } from '../../domain/transactions/read-transactions.ts';
import { settleTransaction } from '../../domain/transactions/settle-transaction.ts';
import { transactionIdsOf } from '../../domain/transactions/transaction-ids.ts';
import { updateManyTransactions } from '../../domain/transactions/update-many-transactions.ts';

const route = lookupIn(transactionRoutes);
const splitRoute = lookupIn(transactionSplitRoutes);

export function mountTransactionRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('createTransfer'), ({ body }, ctx) => createTransfer(orm.em.fork(), ctx, body));
  mountRoute(router, route('createTransaction'), ({ body }, ctx) =>
    createTransaction(orm.em.fork(), billingFor(runtime), ctx, body),
  );
  mountRoute(router, route('listTransactions'), ({ query }, ctx) =>
    listTransactions(orm.em.fork(), billingFor(runtime), ctx, query),
  );
  mountRoute(router, route('getTransaction'), ({ params }, ctx) => getTransaction(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('deleteTransaction'), ({ params, query }, ctx) =>
    deleteTransaction(orm.em.fork(), ctx, params.id, query),
  );
  mountRoute(router, route('updateManyTransactions'), ({ query, body }, ctx) =>
    updateManyTransactions(orm.em.fork(), billingFor(runtime), ctx, transactionIdsOf(query), body),
  );
  mountRoute(router, route('duplicateTransaction'), ({ params }, ctx) =>
    duplicateTransaction(orm.em.fork(), ctx, params.id),
  );
  mountRoute(router, route('appendInstallments'), ({ params, body }, ctx) =>
    appendInstallments(orm.em.fork(), billingFor(runtime), ctx, params.id, body.quantity),
  );
  mountRoute(router, route('settleTransaction'), ({ params, body }, ctx) =>
    settleTransaction(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, splitRoute('getTransactionSplit'), ({ params }, ctx) =>
    getTransactionSplit(orm.em.fork(), ctx, params.id),
  );
  mountRoute(router, splitRoute('replaceTransactionSplit'), ({ params, body }, ctx) =>
    replaceTransactionSplit(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, splitRoute('removeTransactionSplit'), ({ params, query }, ctx) =>
    removeTransactionSplit(orm.em.fork(), ctx, params.id, query),
  );
}
