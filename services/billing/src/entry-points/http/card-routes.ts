import { creditCardRoutes } from '@finance/shared/contracts/billing/credit-cards';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { BillingRuntime } from '../../config.ts';
import {
  type CardInput,
  createCard,
  deleteCard,
  getCard,
  listCards,
  updateCard,
} from '../../domain/cards/manage-cards.ts';
import { ledgerFor } from '../../ledger-client.ts';

const route = (operationId: string) => routeById(creditCardRoutes, operationId);

export function mountCardRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  mountRoute(router, route('createCreditCard'), (input, ctx) =>
    createCard(orm.em.fork(), ledger, ctx, input.body as CardInput),
  );
  mountRoute(router, route('listCreditCards'), (input, ctx) =>
    listCards(orm.em.fork(), ledger, ctx, input.query as { limit: number; cursor?: string }),
  );
  mountRoute(router, route('getCreditCard'), (input, ctx) =>
    getCard(orm.em.fork(), ledger, ctx, String(input.params.id)),
  );
  mountRoute(router, route('updateCreditCard'), (input, ctx) =>
    updateCard(orm.em.fork(), ledger, ctx, String(input.params.id), input.body as CardInput),
  );
  mountRoute(router, route('deleteCreditCard'), (input, ctx) =>
    deleteCard(orm.em.fork(), ledger, ctx, String(input.params.id)),
  );
}
