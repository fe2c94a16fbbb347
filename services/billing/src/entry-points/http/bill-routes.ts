import { billRoutes } from '@finance/shared/contracts/billing/bills';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { BillingRuntime } from '../../config.ts';
import { changeClosingDate, recoverClosingDateChange } from '../../domain/bills/change-closing-date.ts';
import { payBill } from '../../domain/bills/pay-bill.ts';
import { listBillTransactions, showBillByCard } from '../../domain/bills/show-bill.ts';
import { ledgerFor } from '../../ledger-client.ts';

const route = lookupIn(billRoutes);

export function mountBillRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  mountRoute(router, route('showBillByCard'), ({ params, query }, ctx) =>
    showBillByCard(orm.em.fork(), ledger, ctx, params.cardId, query),
  );
  mountRoute(router, route('listBillTransactions'), ({ params, query }, ctx) =>
    listBillTransactions(orm.em.fork(), ledger, ctx, params.cardId, query),
  );
  mountRoute(
    router,
    route('changeBillClosingDate'),
    ({ params, body }, ctx) => changeClosingDate(orm.em.fork(), ledger, ctx, params.cardId, body),
    { recover: (point, { params }, ctx) => recoverClosingDateChange(orm.em.fork(), ledger, ctx, params.cardId, point) },
  );
  mountRoute(router, route('payBill'), ({ params, body }, ctx) => payBill(orm.em.fork(), ledger, ctx, params.id, body));
}
