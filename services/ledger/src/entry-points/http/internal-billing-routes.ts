import type {
  BillPaymentInput,
  CardCalendarInput,
  PreviousBalanceEntry,
} from '@finance/shared/clients/ledger-billing-client';
import { anyUuid, calendarDate, positiveCents } from '@finance/shared/contracts/common';
import { internalHandler } from '@finance/shared/http/service-routes';
import express, { type Router } from 'express';
import Joi from 'joi';
import type { LedgerRuntime } from '../../config.ts';
import { billTotals, billTransactions } from '../../domain/card-statements/bill-contents.ts';
import {
  addPreviousBalances,
  cardTransactionDates,
  createBillPayment,
  deleteCardTransactions,
  rebillCard,
} from '../../domain/card-statements/bill-moves.ts';
import { contextTimeZone } from '../../domain/preferences/personal-config.ts';

const billIds = Joi.array().items(anyUuid()).max(5000).default([]);

/** Card and bill reads and writes for billing: behind the signed context, absent from the public table. */
export function mountInternalBillingRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  const internal = express.Router();
  const answer = internalHandler;
  internal.post(
    '/internal/v1/card-transactions/search',
    answer(
      {
        body: Joi.object({ credit_card_id: anyUuid().required(), bill_ids: billIds, totals_bill_ids: billIds }),
      },
      async (input, ctx) => {
        const body = input.body as { credit_card_id: string; bill_ids: string[]; totals_bill_ids: string[] };
        const em = orm.em.fork();
        return {
          transactions: await billTransactions(em, ctx, body.credit_card_id, body.bill_ids),
          totals: await billTotals(em, ctx, body.totals_bill_ids),
          // the bill's status depends on the context's today: its zone comes in the same call
          time_zone: await contextTimeZone(em, ctx),
        };
      },
    ),
  );
  internal.post(
    '/internal/v1/card-transactions/totals',
    answer({ body: Joi.object({ bill_ids: billIds }) }, async (input, ctx) => ({
      totals: await billTotals(orm.em.fork(), ctx, (input.body as { bill_ids: string[] }).bill_ids),
    })),
  );
  internal.post(
    '/internal/v1/card-transactions/dates',
    answer(
      { body: Joi.object({ credit_card_id: anyUuid().required(), from: calendarDate().allow(null).default(null) }) },
      async (input, ctx) => {
        const body = input.body as { credit_card_id: string; from: string | null };
        return { transactions: await cardTransactionDates(orm.em.fork(), ctx, body.credit_card_id, body.from) };
      },
    ),
  );
  internal.post(
    '/internal/v1/card-transactions/rebill',
    answer(
      {
        body: Joi.object({
          credit_card_id: anyUuid().required(),
          calendar_version: Joi.number().integer().min(0).required(),
          first_month: calendarDate().required(),
          bills: Joi.array()
            .items(
              Joi.object({
                bill_id: anyUuid().required(),
                open_date: calendarDate().required(),
                closing_date: calendarDate().required(),
              }),
            )
            .max(20_000)
            .required(),
        }),
      },
      (input, ctx) => rebillCard(orm.em.fork(), ctx, input.body as CardCalendarInput),
    ),
  );
  internal.post(
    '/internal/v1/card-transactions/previous-balances',
    answer(
      {
        body: Joi.object({
          entries: Joi.array()
            .items(
              Joi.object({
                source_bill_id: anyUuid().required(),
                bill_id: anyUuid().required(),
                credit_card_id: anyUuid().required(),
                amount: positiveCents().required(),
                date: calendarDate().required(),
                billed_at: calendarDate().required(),
                title: Joi.string().max(200).required(),
                is_expense: Joi.boolean().default(true),
              }),
            )
            .max(5000)
            .required(),
        }),
      },
      (input, ctx) =>
        addPreviousBalances(orm.em.fork(), ctx, (input.body as { entries: PreviousBalanceEntry[] }).entries),
    ),
  );
  internal.post(
    '/internal/v1/bill-payments',
    answer(
      {
        body: Joi.object({
          payment_id: anyUuid(),
          bill_id: anyUuid().required(),
          account_id: anyUuid().required(),
          amount: positiveCents().required(),
          date: calendarDate().required(),
          title: Joi.string().max(200).required(),
        }),
      },
      (input, ctx) => createBillPayment(orm.em.fork(), ctx, input.body as BillPaymentInput),
    ),
  );
  internal.post(
    '/internal/v1/card-transactions/delete-of-card',
    answer(
      {
        body: Joi.object({
          credit_card_id: anyUuid().required(),
          bill_ids: billIds,
          calendar_version: Joi.number().integer().min(0).default(0),
        }),
      },
      (input, ctx) => {
        const body = input.body as { credit_card_id: string; bill_ids: string[]; calendar_version: number };
        return deleteCardTransactions(orm.em.fork(), ctx, body.credit_card_id, body.bill_ids, body.calendar_version);
      },
    ),
  );
  router.use(internal);
}
