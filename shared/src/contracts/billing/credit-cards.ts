import Joi from 'joi';
import { anyUuid, cents, errorSchema, idParams, listQuery, ownership, type PageQuery, page } from '../common.ts';
import { defineRoute } from '../route.ts';

/** Day of month 1–31, sent as a number or a numeric string (docs/decisions.md §8). */
export const dayOfMonth = () =>
  Joi.alternatives()
    .try(
      Joi.number().integer().strict(),
      Joi.string()
        .trim()
        .pattern(/^\d{1,2}$/, 'day'),
    )
    .custom((value) => {
      const day = Number(value);
      if (!Number.isInteger(day) || day < 1 || day > 31) throw new Error('day');
      return day;
    })
    .messages({
      'alternatives.match': '{{#label}} deve ser um dia do mês entre 1 e 31',
      'any.custom': '{{#label}} deve ser um dia do mês entre 1 e 31',
    });

export const creditCardSchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  logo: Joi.string().allow(null).required(),
  account_id: anyUuid()
    .allow(null)
    .required()
    .description(
      'Linked account (pays the bills); null only for a card a bank shared alone while the context had no account, until an import or `PUT` gives it one',
    ),
  closing_date: Joi.string().required().description('Closing day of month, as a string'),
  expiring_date: Joi.string().required().description('Due day of month, as a string'),
  limit: cents().required(),
  available_limit: cents()
    .allow(null)
    .required()
    .description(
      '`limit` − what the card holds: the remainder of every bill not carried on yet (an overpayment credit counts back), purchases and the remaining installments of parcelled ones included, recurrence occurrences only in bills already open; `null` for an unlimited card',
    ),
  is_unlimited: Joi.boolean().required(),
  needs_closing_date_review: Joi.boolean()
    .required()
    .description(
      'True for a card imported without a closing day until the user sets one (card PUT with `closing_date`, or a closing-date change THIS_AND_NEXT/ALL)',
    ),
  ...ownership,
}).label('CreditCard');

/** A card's fields as a client sends them (all optional on update); the days of month arrive as numbers. */
export interface CardFields {
  name?: string;
  logo?: string | null;
  account_id?: string;
  closing_date?: number;
  expiring_date?: number;
  limit?: number;
  is_unlimited?: boolean;
}

/** A new card: name, account and both days are required. */
export type CreateCardBody = CardFields & {
  name: string;
  account_id: string;
  closing_date: number;
  expiring_date: number;
};

const cardFields = {
  name: Joi.string().trim().min(1).max(100),
  logo: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2048)
    .allow(null),
  account_id: anyUuid(),
  closing_date: dayOfMonth(),
  expiring_date: dayOfMonth(),
  limit: cents().min(0).max(1e13),
  is_unlimited: Joi.boolean().strict(),
};

const createCardBody = Joi.object<CreateCardBody>({
  ...cardFields,
  name: cardFields.name.required(),
  account_id: cardFields.account_id.required(),
  closing_date: cardFields.closing_date.required(),
  expiring_date: cardFields.expiring_date.required(),
}).label('CreateCreditCard');

const updateCardBody = Joi.object<CardFields>(cardFields).min(1).label('UpdateCreditCard');

const notFound = { description: 'Unknown card or another context', schema: errorSchema };

export const creditCardRoutes = [
  defineRoute({
    operationId: 'createCreditCard',
    method: 'post',
    path: '/v1/credit-cards',
    service: 'billing',
    tag: 'Credit cards',
    summary: 'Create a credit card',
    description:
      '`account_id` must be an account of the context (404 otherwise). `closing_date` and `expiring_date` are days of month 1–31 sent as a number or a numeric string and returned as strings. A purchase on the closing day goes to the next bill.',
    body: createCardBody,
    example: {
      name: 'Nubank',
      account_id: '0190a0b0-0000-7000-8000-000000000001',
      closing_date: 10,
      expiring_date: '17',
      limit: 500000,
    },
    responses: { 201: { description: 'The card', schema: creditCardSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'listCreditCards',
    method: 'get',
    path: '/v1/credit-cards',
    service: 'billing',
    tag: 'Credit cards',
    summary: 'List the credit cards of the context',
    description: 'Ordered by creation.',
    query: Joi.object<PageQuery>(listQuery),
    responses: { 200: { description: 'A page of cards', schema: page(creditCardSchema, 'CreditCardPage') } },
  }),
  defineRoute({
    operationId: 'getCreditCard',
    method: 'get',
    path: '/v1/credit-cards/:id',
    service: 'billing',
    tag: 'Credit cards',
    summary: 'Get one credit card',
    params: idParams,
    responses: { 200: { description: 'The card', schema: creditCardSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'updateCreditCard',
    method: 'put',
    path: '/v1/credit-cards/:id',
    service: 'billing',
    tag: 'Credit cards',
    summary: 'Update a credit card',
    description:
      'Only the fields sent change. New `closing_date`/`expiring_date` act like `PATCH /v2/bills/closing-date/by-card/{cardId}` with `THIS_AND_NEXT` and no reference: bills from the open one on get the new dates (closed bills keep theirs) and their transactions move to the bill their date now falls in.',
    params: idParams,
    body: updateCardBody,
    example: { limit: 800000 },
    responses: { 200: { description: 'The card', schema: creditCardSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteCreditCard',
    method: 'delete',
    path: '/v1/credit-cards/:id',
    service: 'billing',
    tag: 'Credit cards',
    summary: 'Delete a credit card',
    description:
      'Logical deletion: the card, its bills and its purchases vanish from every read. Payments of its bills stay in their accounts as plain expenses (`is_bill_payment` false, no `bill_id`): that money left the bank, so balances keep it. Returns the card as it was.',
    params: idParams,
    responses: { 200: { description: 'The deleted card', schema: creditCardSchema }, 404: notFound },
  }),
];
