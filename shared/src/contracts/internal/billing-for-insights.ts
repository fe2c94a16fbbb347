import Joi from 'joi';
import { anyUuid, calendarDate } from '../common.ts';
import { defineRoute } from '../route.ts';

/** A card's current bill: the one whose period holds today (open date ≤ today < closing date). */
export interface CurrentBill {
  id: string;
  credit_card_id: string;
  /** `YYYY-MM-DD` */
  closing_date: string;
}

/** A purchase the forecast adds to a card's bill of its date (a recurrence's occurrence not written yet): + expense. */
export interface ProjectedPurchase {
  credit_card_id: string;
  date: string;
  amount: number;
}

/** What a bill still to be paid owes (`billFigures`' balance plus the projected purchases), due from its card's account. */
export interface BillAhead {
  /** Null for a bill no purchase stored yet (projected purchases only). */
  bill_id: string | null;
  credit_card_id: string;
  card_name: string;
  account_id: string;
  due_date: string;
  balance: number;
}

export interface BillsAheadInput {
  until: string;
  purchases: ProjectedPurchase[];
}

/** Billing's reads for insights. */
export const billingForInsightsRoutes = [
  defineRoute({
    operationId: 'listCurrentBills',
    method: 'get',
    path: '/internal/v1/bills/current',
    service: 'billing',
    internal: true,
    tag: 'Internal: billing for insights',
    summary: 'The stored current bill of each live card of the context on `today`',
    query: Joi.object<{ today: string }>({ today: calendarDate().required() }),
    responses: { 200: { description: '`{bills}` (cards without a current bill are absent)' } },
  }),
  defineRoute({
    operationId: 'listBillsAhead',
    method: 'post',
    path: '/internal/v1/bills/ahead',
    service: 'billing',
    internal: true,
    tag: 'Internal: billing for insights',
    summary: 'The bills of the live cards still to be paid (not carried by the rollover), due by `until`',
    body: Joi.object<BillsAheadInput>({
      until: calendarDate().required(),
      purchases: Joi.array()
        .items(
          Joi.object({
            credit_card_id: anyUuid().required(),
            date: calendarDate().required(),
            amount: Joi.number().integer().required(),
          }),
        )
        .max(20_000)
        .default([]),
    }),
    responses: { 200: { description: '`{bills}`, by card and due date' } },
  }),
];
