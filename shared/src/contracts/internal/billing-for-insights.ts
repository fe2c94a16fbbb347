import Joi from 'joi';
import { calendarDate } from '../common.ts';
import { defineRoute } from '../route.ts';

/** A card's current bill: the one whose period holds today (open date ≤ today < closing date). */
export interface CurrentBill {
  id: string;
  credit_card_id: string;
  /** `YYYY-MM-DD` */
  closing_date: string;
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
];
