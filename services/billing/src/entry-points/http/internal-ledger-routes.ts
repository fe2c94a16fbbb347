import { billingForLedgerRoutes } from '@finance/shared/contracts/internal/billing-for-ledger';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { BillingRuntime } from '../../config.ts';
import { assignBills } from '../../domain/bills/assign-bills.ts';
import { importCards } from '../../domain/cards/import-cards.ts';
import { cardsLinked, moveCards } from '../../domain/cards/move-cards.ts';

const route = lookupIn(billingForLedgerRoutes);

/** Billing's API for the ledger (signed context required, never routed by the gateway). */
export function mountInternalLedgerRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('assignBills'), ({ body }, ctx) => assignBills(orm.em.fork(), ctx, body));
  mountRoute(router, route('moveAccountCards'), ({ body }, ctx) => moveCards(orm.em.fork(), ctx, body));
  mountRoute(router, route('listLinkedCards'), ({ query }, ctx) => cardsLinked(orm.em.fork(), ctx, query.account_id));
  // open-banking imports: billing owns the cards, the ledger's import worker sends them
  mountRoute(router, route('importCards'), ({ body }, ctx) => importCards(orm.em.fork(), ctx, body));
}
