import { billRoutes } from '@finance/shared/contracts/billing/bills';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { BillingRuntime } from '../../config.ts';
import { type ClosingDateInput, changeClosingDate } from '../../domain/bills/change-closing-date.ts';
import { payBill } from '../../domain/bills/pay-bill.ts';
import { type BillFilters, listBillTransactions, showBillByCard } from '../../domain/bills/show-bill.ts';
import { ledgerFor } from '../../ledger-client.ts';

const route = (operationId: string) => routeById(billRoutes, operationId);

export function mountBillRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  mountRoute(router, route('showBillByCard'), (input, ctx) =>
    showBillByCard(orm.em.fork(), ledger, ctx, String(input.params.cardId), input.query as { date?: string }),
  );
  mountRoute(router, route('listBillTransactions'), (input, ctx) =>
    listBillTransactions(orm.em.fork(), ledger, ctx, String(input.params.cardId), input.query as BillFilters),
  );
  mountRoute(router, route('changeBillClosingDate'), (input, ctx) =>
    changeClosingDate(orm.em.fork(), ledger, ctx, String(input.params.cardId), input.body as ClosingDateInput),
  );
  mountRoute(router, route('payBill'), (input, ctx) =>
    payBill(
      orm.em.fork(),
      ledger,
      ctx,
      String(input.params.id),
      input.body as { account_id: string; amount?: number; date?: string },
    ),
  );
}
