import Joi from 'joi';
import { anyUuid } from '../common.ts';
import { defineRoute } from '../route.ts';

/** One purchase date's bill: `billed_at` is the bill's closing date, `YYYY-MM-DD`. */
export interface BillAssignment {
  date: string;
  bill_id: string;
  billed_at: string;
}

export interface AssignBillsInput {
  credit_card_id: string;
  dates: string[];
  /** Due dates an institution named: the bill of each is the card's bill due that day (its month's). */
  due_dates?: string[];
}

/** The bills of the dates, in order, and the version of the card's calendar they were assigned under. */
export interface AssignBillsResult {
  card: { id: string; account_id: string | null; name: string; calendar_version: number };
  assignments: BillAssignment[];
  /** The bill of each due date asked for, in order (`date` is the due date). */
  due_assignments: BillAssignment[];
}

export interface MoveCardsInput {
  from_account_id: string;
  to_account_id: string;
}

/** A card as these endpoints show it: its id and the account it follows. */
export interface LinkedCard {
  id: string;
  account_id: string;
}

/** One card of an open-banking import, its account already resolved to a ledger id. */
export interface ImportedCardInput {
  external_id: string;
  name: string;
  /** null when the card's account was deleted by the user: an existing card keeps its account, a new one is skipped. */
  account_id: string | null;
  /** The bank shared the card alone and the context has no account: a new card is kept without one. */
  without_account?: boolean;
  closing_day: number | null;
  due_day: number;
  limit: number;
  /** What the bank says is available of the limit (null: unknown, computed from the bills). */
  available_limit: number | null;
}

export interface ImportCardsInput {
  connection_id: string;
  cards: ImportedCardInput[];
}

/** Every card of the connection after the upsert, deleted ones included, so references resolve. */
export interface ImportedCard {
  id: string;
  external_id: string;
  account_id: string | null;
  deleted: boolean;
}

export interface ImportCardsResult {
  created: number;
  updated: number;
  cards: ImportedCard[];
}

const day = () => Joi.number().integer().min(1).max(31);
const common = { service: 'billing' as const, internal: true, tag: 'Internal: billing for ledger' };

/** Billing's endpoints for the ledger: the bill of each card purchase date, cards following an account, imports. */
export const billingForLedgerRoutes = [
  defineRoute({
    ...common,
    operationId: 'assignBills',
    method: 'post',
    path: '/internal/v1/bills/assign',
    summary: 'The bill of each purchase date, and of each due date, of a card (created as needed)',
    body: Joi.object<AssignBillsInput>({
      credit_card_id: anyUuid().required(),
      dates: Joi.array().items(Joi.string()).max(5000).required(),
      due_dates: Joi.array().items(Joi.string()).max(5000).default([]),
    }),
    responses: { 200: { description: 'The card and the bill of each date, in order' } },
  }),
  defineRoute({
    ...common,
    operationId: 'moveAccountCards',
    method: 'post',
    path: '/internal/v1/credit-cards/move',
    summary: 'Moves every live card of an account to another one',
    body: Joi.object<MoveCardsInput>({ from_account_id: anyUuid().required(), to_account_id: anyUuid().required() }),
    responses: { 200: { description: '`{moved}`: each moved card' } },
  }),
  defineRoute({
    ...common,
    operationId: 'listLinkedCards',
    method: 'get',
    path: '/internal/v1/credit-cards/linked',
    summary: 'Live cards of the context linked to an account',
    query: Joi.object<{ account_id: string }>({ account_id: anyUuid().required() }),
    responses: { 200: { description: '`{credit_cards}`' } },
  }),
  defineRoute({
    ...common,
    operationId: 'importCards',
    method: 'post',
    path: '/internal/v1/credit-cards/import',
    summary: "Upserts an open-banking connection's cards by external id and lists them all",
    body: Joi.object<ImportCardsInput>({
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
            available_limit: Joi.number().integer().allow(null).default(null),
            without_account: Joi.boolean().default(false),
          }),
        )
        .unique('external_id')
        .max(1000)
        .required(),
    }),
    responses: { 200: { description: 'Counts and every card of the connection' } },
  }),
];
