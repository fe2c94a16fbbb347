import { BILLING_PATHS } from '@finance/shared/clients/billing-client';
import { anyUuid } from '@finance/shared/contracts/common';
import { callerOf } from '@finance/shared/http/service-routes';
import { validateRequest } from '@finance/shared/http/validate';
import express, { type Router } from 'express';
import Joi from 'joi';
import type { BillingRuntime } from '../../config.ts';
import { assignBills } from '../../domain/bills/assign-bills.ts';
import { cardsLinked, moveCards } from '../../domain/cards/move-cards.ts';

const assignBody = Joi.object({
  credit_card_id: anyUuid().required(),
  dates: Joi.array().items(Joi.string()).max(5000).required(),
});
const moveBody = Joi.object({ from_account_id: anyUuid().required(), to_account_id: anyUuid().required() });
const linkedQuery = Joi.object({ account_id: anyUuid().required() });

/** Billing's API for the ledger (signed context required, never routed by the gateway). */
export function mountInternalRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  const internal = express.Router();
  internal.post(BILLING_PATHS.assign, async (req, res) => {
    const { body } = validateRequest({ body: assignBody }, req);
    res.json(await assignBills(orm.em.fork(), callerOf(res), body as { credit_card_id: string; dates: string[] }));
  });
  internal.post(BILLING_PATHS.moveCards, async (req, res) => {
    const { body } = validateRequest({ body: moveBody }, req);
    res.json(await moveCards(orm.em.fork(), callerOf(res), body as { from_account_id: string; to_account_id: string }));
  });
  internal.get(BILLING_PATHS.linkedCards, async (req, res) => {
    const { query } = validateRequest({ query: linkedQuery }, req);
    res.json(await cardsLinked(orm.em.fork(), callerOf(res), String(query.account_id)));
  });
  router.use(internal);
}
