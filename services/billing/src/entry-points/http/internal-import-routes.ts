import { BILLING_IMPORT_PATH, type ImportedCardInput } from '@finance/shared/clients/billing-import-client';
import { anyUuid } from '@finance/shared/contracts/common';
import { callerOf } from '@finance/shared/http/service-routes';
import { validateRequest } from '@finance/shared/http/validate';
import type { Router } from 'express';
import Joi from 'joi';
import type { BillingRuntime } from '../../config.ts';
import { importCards } from '../../domain/cards/import-cards.ts';

const day = () => Joi.number().integer().min(1).max(31);
const importBody = Joi.object({
  connection_id: anyUuid().required(),
  cards: Joi.array()
    .items(
      Joi.object({
        external_id: Joi.string().min(1).max(200).required(),
        name: Joi.string().min(1).max(100).required(),
        account_id: anyUuid().allow(null).required(),
        closing_day: day().allow(null).required(),
        due_day: day().required(),
        limit: Joi.number().integer().min(0).required(),
      }),
    )
    .unique('external_id')
    .max(1000)
    .required(),
});

/** Billing's side of open-banking imports (signed context required, never routed by the gateway). */
export function mountInternalImportRoutes(router: Router, runtime: BillingRuntime): void {
  const { orm } = runtime;
  router.post(BILLING_IMPORT_PATH, async (req, res) => {
    const { body } = validateRequest({ body: importBody }, req);
    res.json(
      await importCards(orm.em.fork(), callerOf(res), body as { connection_id: string; cards: ImportedCardInput[] }),
    );
  });
}
