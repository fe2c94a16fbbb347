import { creditCardRoutes } from '@finance/shared/contracts/billing/credit-cards';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { BillingRuntime } from '../../config.ts';
import { createCard, deleteCard, getCard, listCards, updateCard } from '../../domain/cards/manage-cards.ts';
import { ledgerFor } from '../../ledger-client.ts';

const route = lookupIn(creditCardRoutes);

export function mountCardRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  mountRoute(router, route('createCreditCard'), ({ body }, ctx) => createCard(orm.em.fork(), ledger, ctx, body));
  mountRoute(router, route('listCreditCards'), ({ query }, ctx) => listCards(orm.em.fork(), ledger, ctx, query));
  mountRoute(router, route('getCreditCard'), ({ params }, ctx) => getCard(orm.em.fork(), ledger, ctx, params.id));
  mountRoute(
    router,
    route('updateCreditCard'),
    ({ params, body }, ctx) => updateCard(orm.em.fork(), ledger, ctx, params.id, body),
    // a retry after the answer was lost: the card as it is (what it holds comes from the ledger after the commit)
    { recover: (_point, { params }, ctx) => getCard(orm.em.fork(), ledger, ctx, params.id) },
  );
  mountRoute(router, route('deleteCreditCard'), ({ params }, ctx) => deleteCard(orm.em.fork(), ledger, ctx, params.id));
}
