import {
  LEDGER_INSIGHTS_PATHS as PATHS,
  type Period,
  type SpendingWindow,
} from '@finance/shared/clients/ledger-insights-client';
import { anyUuid, calendarDate } from '@finance/shared/contracts/common';
import { internalHandler } from '@finance/shared/http/service-routes';
import express, { type Router } from 'express';
import Joi from 'joi';
import type { LedgerRuntime } from '../../config.ts';
import {
  categoryRefs,
  dreTotals,
  spendingByWindow,
  summaryOf,
  totalsBySubcategory,
} from '../../domain/aggregates/aggregates.ts';

type CategoryIds = { category_ids: string[]; subcategory_ids: string[] };

const period = { start_date: calendarDate().required(), end_date: calendarDate().required() };
const ids = Joi.array().items(anyUuid()).max(1000).default([]);
const windows = Joi.array()
  .items(
    Joi.object({
      key: Joi.string().max(200).required(),
      category_id: anyUuid().required(),
      subcategory_id: anyUuid().allow(null).required(),
      from: calendarDate().required(),
      to: calendarDate().required(),
    }),
  )
  .max(5000)
  .required();

/**
 * Aggregates insights reads over HTTP (it never queries the ledger schema); mounted behind the signed
 * context like every route, but absent from the public route table, so the gateway never exposes them.
 */
export function mountInternalInsightsRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  const internal = express.Router();
  const answer = internalHandler;
  internal.post(
    PATHS.categoryRefs,
    answer({ body: Joi.object({ category_ids: ids, subcategory_ids: ids }) }, (input, ctx) =>
      categoryRefs(orm.em.fork(), ctx, input.body as CategoryIds),
    ),
  );
  internal.post(
    PATHS.spending,
    answer({ body: Joi.object({ windows }) }, (input, ctx) =>
      spendingByWindow(orm.em.fork(), ctx, (input.body as { windows: SpendingWindow[] }).windows),
    ),
  );
  internal.get(
    PATHS.bySubcategory,
    answer({ query: Joi.object(period) }, (input, ctx) =>
      totalsBySubcategory(orm.em.fork(), ctx, input.query as unknown as Period & { today: string }),
    ),
  );
  internal.get(
    PATHS.summary,
    answer(
      { query: Joi.object({ ...period, today: calendarDate().required(), open_bill_ids: ids.single() }) },
      (input, ctx) =>
        summaryOf(orm.em.fork(), ctx, input.query as unknown as Period & { today: string; open_bill_ids: string[] }),
    ),
  );
  internal.get(
    PATHS.dre,
    answer({ query: Joi.object(period) }, (input, ctx) =>
      dreTotals(orm.em.fork(), ctx, input.query as unknown as Period & { today: string }),
    ),
  );
  router.use(internal);
}
